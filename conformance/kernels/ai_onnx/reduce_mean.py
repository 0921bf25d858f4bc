"""ReduceMean: mean over `axes` (all when absent); axes attribute before 18, optional input from 18."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from conformance.kernels.ai_onnx._common import normalize_axes, work_dtype
from conformance.kernels.registry import kernel


def _mean(data: np.ndarray, axes: Sequence[int] | None, keepdims: int) -> np.ndarray:
    ax = tuple(range(data.ndim)) if not axes else normalize_axes("ReduceMean", axes, data.ndim)
    integer = data.dtype.kind in "iub"
    if any(data.shape[a] == 0 for a in ax):  # the mean of an empty set: NaN, 0 for an integer type (the reading)
        shape = np.sum(np.empty(data.shape, np.int8), axis=ax, keepdims=bool(keepdims)).shape
        return np.full(shape, 0 if integer else np.nan, dtype=data.dtype)
    acc = np.float64 if integer else work_dtype(data)
    y = np.mean(data, axis=ax, keepdims=bool(keepdims), dtype=acc)
    return np.asarray(y).astype(data.dtype, copy=False)


@kernel("ai.onnx", "ReduceMean", since=1, until=17)
def reduce_mean_attr(data: np.ndarray, *, axes: list[int] | None, keepdims: int) -> tuple[np.ndarray, ...]:
    return (_mean(data, axes, keepdims),)


@kernel("ai.onnx", "ReduceMean", since=18)
def reduce_mean(data: np.ndarray, axes: np.ndarray | None, *, keepdims: int,
                noop_with_empty_axes: int) -> tuple[np.ndarray, ...]:
    ax = [] if axes is None else np.asarray(axes).reshape(-1).tolist()
    if not ax and noop_with_empty_axes:
        return (data.copy(),)
    return (_mean(data, ax, keepdims),)
