"""ReduceMax: max over `axes` (all when absent); axes attribute before 18, optional input from 18.

Over an empty set the result is minus infinity, the type's least value, or False for bool (False < True).
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import reduction_axes
from conformance.kernels.registry import kernel


def _identity(dtype: np.dtype) -> bool | int | float:
    """The max of an empty set: the value every element of `dtype` is at least."""
    if dtype == np.bool_:
        return False
    if dtype.kind in "iu":
        return int(np.iinfo(dtype).min)
    return -np.inf


def _max(data: np.ndarray, ax: tuple[int, ...], keepdims: int) -> np.ndarray:
    y = np.max(data, axis=ax, keepdims=bool(keepdims), initial=_identity(data.dtype))
    return np.asarray(y).astype(data.dtype, copy=False)


@kernel("ai.onnx", "ReduceMax", since=1, until=17)
def reduce_max_attr(data: np.ndarray, *, axes: list[int] | None, keepdims: int) -> tuple[np.ndarray, ...]:
    return (_max(data, reduction_axes("ReduceMax", data.ndim, axes, 0), keepdims),)


@kernel("ai.onnx", "ReduceMax", since=18)
def reduce_max(data: np.ndarray, axes: np.ndarray | None, *, keepdims: int,
               noop_with_empty_axes: int) -> tuple[np.ndarray, ...]:
    return (_max(data, reduction_axes("ReduceMax", data.ndim, axes, noop_with_empty_axes), keepdims),)
