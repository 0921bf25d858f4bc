"""ReduceSum: sum over `axes` (all when absent); axes attribute before 13, optional input from 13.

Integer sums wrap as the type's own two's-complement addition does; half precision adds in float32.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import accumulator, reduction_axes
from conformance.kernels.registry import kernel


def _sum(data: np.ndarray, ax: tuple[int, ...], keepdims: int) -> np.ndarray:
    y = np.sum(data, axis=ax, keepdims=bool(keepdims), dtype=accumulator(data))
    return np.asarray(y).astype(data.dtype)


@kernel("ai.onnx", "ReduceSum", since=1, until=12)
def reduce_sum_attr(data: np.ndarray, *, axes: list[int] | None, keepdims: int) -> tuple[np.ndarray, ...]:
    return (_sum(data, reduction_axes("ReduceSum", data.ndim, axes, 0), keepdims),)


@kernel("ai.onnx", "ReduceSum", since=13)
def reduce_sum(data: np.ndarray, axes: np.ndarray | None, *, keepdims: int,
               noop_with_empty_axes: int) -> tuple[np.ndarray, ...]:
    return (_sum(data, reduction_axes("ReduceSum", data.ndim, axes, noop_with_empty_axes), keepdims),)
