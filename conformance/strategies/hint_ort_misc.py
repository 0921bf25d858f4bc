"""Hints for com.microsoft's IsAllFinite and ai.onnx.ort's GivenTensorFill: cases the YAML cannot ask for.

- IsAllFinite: each input clean, or with NaN only, infinities only or both mixed in, and each attribute setting
  about as often as the others, so that each setting meets inputs it passes and inputs it fails.
- GivenTensorFill: the output's dims from each of the three sources (the shape attribute; the input's shape and
  extra_shape; the input's values, small whole numbers in a float tensor, with input_as_shape = 1), then exactly one
  value per output element (the formulas cannot read a float input's values, so no constraint can ask for them);
  without an input (its type is then float) only in the float cell.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import strategies as st

from conformance.strategies.attributes import OMIT, DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.hints import OpHint, set_input_shape
from conformance.strategies.memo import BOOLEANS, integers
from conformance.strategies.values import SEEDS, fill_array

# the kind drawn most (Hypothesis favours the first) leads; where one kind is checked alone that is the other kind:
# true for the setting, false for a backend that checks both
_KINDS = ("both", "nan", "inf", "clean")
_KINDS_BY_SETTING = {"isinf_only": ("nan", "clean", "inf"), "isnan_only": ("inf", "clean", "nan")}


def _maybe_finite(draw: DrawFn, ctx: DrawContext) -> Any:  # one array per position of the variadic input
    out = []
    kinds = next((k for name, k in _KINDS_BY_SETTING.items() if ctx.attributes.get(name) == 1), _KINDS)
    for shape in ctx.shapes["input"]:
        seed, kind = draw(SEEDS), draw(st.sampled_from(kinds))
        x = fill_array(seed, ctx.dtype, list(shape))
        if kind != "clean" and x.size:
            rng = np.random.default_rng(seed)
            specials = {"nan": [np.nan], "inf": [np.inf, -np.inf], "both": [np.nan, np.inf, -np.inf]}[kind]
            at = rng.integers(0, x.size, size=max(1, x.size // 4))
            flat = x.reshape(-1).copy()
            flat[at] = np.asarray(specials)[rng.integers(0, len(specials), at.size)]
            x = flat.reshape(x.shape)
        out.append(np.asarray(x))
    return out


def _isinf_only(draw: DrawFn, ctx: DrawContext) -> object:
    """The setting is drawn once, here: NaN only, infinities only, both (attributes 0) or both (left off)."""
    setting = draw(st.sampled_from(("nan", "inf", "both", "default")))
    ctx.scratch["isallfinite"] = setting
    return 1 if setting == "inf" else 0 if setting != "default" else OMIT


def _isnan_only(draw: DrawFn, ctx: DrawContext) -> object:
    setting = ctx.scratch.get("isallfinite", "default")
    return 1 if setting == "nan" else 0 if setting != "default" else OMIT


# each attribute setting about as often as the others (the generic draw keeps to the defaults)
IS_ALL_FINITE_HINT = OpHint(values={"input": _maybe_finite},
                            attributes={"isinf_only": _isinf_only, "isnan_only": _isnan_only})


def _fill_source(draw: DrawFn, ctx: DrawContext) -> None:
    # without an input nothing in the node says the output's type: float, as the kernel (Caffe2) takes it
    sources = ("attribute", "input shape", "input values") if ctx.dtype == "float" else ("input shape", "input values")
    source = draw(st.sampled_from(sources))
    if source == "attribute":
        ctx.shapes["shape_input"] = None
        ctx.omitted.add("shape_input")
        out = [draw(integers(1, 3)) for _ in range(draw(integers(0, 3)))]
        ctx.attributes["shape"] = out
    else:
        ctx.omitted.discard("shape_input")
        extra = [draw(integers(1, 3)) for _ in range(draw(integers(0, 2)))]
        if extra or draw(BOOLEANS):
            ctx.attributes["extra_shape"] = extra
        if source == "input shape":
            shape = [draw(integers(1, 3)) for _ in range(draw(integers(1, 2)))]
            if draw(BOOLEANS):
                ctx.attributes["input_as_shape"] = 0
        else:
            shape = [draw(integers(0, 3)) for _ in range(draw(integers(0, 3)))]
            ctx.scratch["fill_dims"] = shape
            ctx.attributes["input_as_shape"] = 1
        set_input_shape(ctx, "shape_input", [len(shape)] if source == "input values" else shape)
        out = shape + extra
    ctx.attributes["values"] = [draw(integers(-16, 16)) / 8 for _ in range(int(np.prod(out, dtype=np.int64)))]


def _fill_input(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
    if "shape_input" in ctx.omitted:
        return None
    if "fill_dims" in ctx.scratch:
        return np.asarray(ctx.scratch["fill_dims"], dtype=fill_array(0, ctx.dtype, [0]).dtype)
    return fill_array(draw(SEEDS), ctx.dtype, list(ctx.shapes["shape_input"]))


GIVEN_TENSOR_FILL_HINT = OpHint(shapes=_fill_source, values={"shape_input": _fill_input}, generic_attributes=False)
