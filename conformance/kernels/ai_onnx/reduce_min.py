"""ReduceMin: min over `axes` (all when absent); axes attribute before 18, optional input from 18.

Over an empty set the result is plus infinity, the type's greatest value, or True for bool (False < True).
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import reduction_axes
from conformance.kernels.registry import kernel


def _identity(dtype: np.dtype) -> bool | int | float:
    """The min of an empty set: the value every element of `dtype` is at most."""
    if dtype == np.bool_:
        return True
    if dtype.kind in "iu":
        return int(np.iinfo(dtype).max)
    return np.inf


def _min(data: np.ndarray, ax: tuple[int, ...], keepdims: int) -> np.ndarray:
    y = np.min(data, axis=ax, keepdims=bool(keepdims), initial=_identity(data.dtype))
    return np.asarray(y).astype(data.dtype, copy=False)


@kernel("ai.onnx", "ReduceMin", since=1, until=17)
def reduce_min_attr(data: np.ndarray, *, axes: list[int] | None, keepdims: int) -> tuple[np.ndarray, ...]:
    return (_min(data, reduction_axes("ReduceMin", data.ndim, axes, 0), keepdims),)


@kernel("ai.onnx", "ReduceMin", since=18)
def reduce_min(data: np.ndarray, axes: np.ndarray | None, *, keepdims: int,
               noop_with_empty_axes: int) -> tuple[np.ndarray, ...]:
    return (_min(data, reduction_axes("ReduceMin", data.ndim, axes, noop_with_empty_axes), keepdims),)
