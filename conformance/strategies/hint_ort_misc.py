"""The hint of com.microsoft's IsAllFinite: cases the YAML cannot ask for.

- IsAllFinite: each input clean, or with NaN only, infinities only or both mixed in, and each attribute setting
  about as often as the others, so that each setting meets inputs it passes and inputs it fails.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import strategies as st

from conformance.strategies.attributes import OMIT, DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.hints import OpHint
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
