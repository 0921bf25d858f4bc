"""Input values beyond the generic draw's finite quarter steps: the IEEE specials and the integer extremes.

The generic draw (`values.fill_array`) gives finite values in [-4, 4]. Ops whose definition singles out NaN,
the infinities or signed zeros (IsNaN, IsInf; Ceil, Floor and Round return them unchanged), or whose integer
behaviour shows only at the ends of the type's range (Neg wraps -(-128) to -128 in int8), draw their first
input here: the generic values with about a quarter of the elements replaced by such values.
"""

from __future__ import annotations

import numpy as np

from conformance.element_types import is_float_dtype
from conformance.strategies.attributes import DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.hints import OpHint
from conformance.strategies.values import SEEDS, fill_array

SHARE = 0.25  # of the elements replaced by a special value


def specials_of(dtype: np.dtype) -> np.ndarray:
    """The special values of a numeric dtype: NaN, +-inf and -0 for floats, the extremes for integers."""
    if is_float_dtype(dtype):  # ml_dtypes floats too
        return np.array([np.nan, np.inf, -np.inf, -0.0], dtype=dtype)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return np.array([info.min, info.max], dtype=dtype)
    return np.zeros(0, dtype=dtype)


def with_specials(seed: int, element: str, shape: list[int]) -> np.ndarray:
    """Generic values of `element` with about SHARE of them replaced by `specials_of` the dtype."""
    x = fill_array(seed, element, shape)
    specials = specials_of(x.dtype)
    if specials.size:
        rng = np.random.default_rng(seed ^ 0x5EC1A15)
        chosen = rng.random(x.shape) < SHARE
        x = np.where(chosen, specials[rng.integers(0, specials.size, x.shape)], x).astype(x.dtype)
    return np.asarray(x)


def specials_hint(name: str) -> OpHint:
    """A hint drawing input `name` with special values mixed in (its shape as the generic draw chose it)."""

    def values(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
        param = next(p for p in ctx.version.inputs if p.name == name)
        return with_specials(draw(SEEDS), ctx.element_of(param.type), list(ctx.shapes[name]))

    return OpHint(values={name: values})
