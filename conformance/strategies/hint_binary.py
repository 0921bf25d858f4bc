"""The hint of Pow from opset 12 on: exponents whose every value fits the base value it meets.

Why no domain says it: the rule ties each exponent value to the base value it is broadcast against (no fractional
power of a negative integer base, no negative power of an integer 0), a relation between the elements of two
inputs; domains describe one input's values at a time. Shapes broadcast as `broadcast: numpy` draws them, and the
exponent's type T1 is drawn among all it allows (not held to the base's).
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from conformance.element_types import is_float_dtype
from conformance.strategies.attributes import DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.dtypes import numpy_dtype
from conformance.strategies.hints import OpHint, dims, set_input_shape
from conformance.strategies.memo import BOOLEANS, integers
from conformance.strategies.values import SEEDS, fill_array
from opset.cells import DRAWN_ELEMENTS, allowed_elements

MAX_RANK = 4


def _partner(draw: DrawFn, out: list[int]) -> list[int]:
    """A shape that broadcasts to `out`: a suffix of it (all of it half the time) with some dims set to 1."""
    size = len(out) if draw(BOOLEANS) else draw(integers(0, len(out)))
    return [1 if d > 1 and draw(integers(0, 3)) == 0 else d for d in out[len(out) - size:]]


def _shapes(draw: DrawFn, ctx: DrawContext) -> None:
    """X and Y partners of one drawn output shape; T1 bound to any element type it allows (float and int64 first)."""
    out = dims(draw, draw(integers(0, MAX_RANK)), ctx.max_side)
    for param in ctx.version.inputs:
        set_input_shape(ctx, param.name, _partner(draw, out))
    allowed = [e for e in allowed_elements(ctx.version, "T1") if e in DRAWN_ELEMENTS]
    first = [e for e in ("float", "int64") if e in allowed]
    ctx.type_bindings["T1"] = draw(st.sampled_from(first + [e for e in allowed if e not in first]))


def _meets(mask: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """For each element of an array of `shape`: whether `mask` holds at some element broadcast against it."""
    out = np.broadcast_shapes(mask.shape, shape)
    lead = len(out) - len(shape)
    axes = tuple(range(lead)) + tuple(lead + i for i, d in enumerate(shape) if d == 1 and out[lead + i] != 1)
    return np.broadcast_to(mask, out).any(axis=axes).reshape(shape)


def _base(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    """X: an integer base is drawn from [-6, 6], or from [0, 6] in half the draws, where every fractional exponent
    keeps its fraction (so truncating the power toward zero is tested)."""
    element = ctx.element_of(ctx.version.inputs[0].type)
    if numpy_dtype(element).kind == "f":
        return fill_array(draw(SEEDS), element, ctx.shapes["X"])
    low = 0 if draw(BOOLEANS) else -6
    return fill_array(draw(SEEDS), element, ctx.shapes["X"], min_value=low, max_value=6)


def _exponent(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    """Y: with an integer X every power has an integer value (no fractional exponent of a negative base, no
    negative exponent of 0); with a float X half the draws keep the NaN and infinite cases."""
    element = ctx.element_of("T1")
    y = fill_array(draw(SEEDS), element, ctx.shapes["Y"])
    x = ctx.arrays.get("X")
    if not isinstance(x, np.ndarray):
        raise ValueError(f"{ctx.version.signature}: X must be drawn before Y")
    if x.dtype.kind == "f" and draw(BOOLEANS):
        return y
    if is_float_dtype(y.dtype):  # bfloat16 and the float8 types too
        y = np.where(_meets(x < 0, y.shape), np.trunc(y.astype(np.float32)), y.astype(np.float32)).astype(y.dtype)
    if y.dtype.kind != "u":
        y = np.where(_meets(x == 0, y.shape) & (y < 0), -y, y)
    return np.asarray(y, dtype=y.dtype)


POW_HINTS = (OpHint(shapes=_shapes, values={"X": _base, "Y": _exponent}, since=12),)
