"""ReduceSumSquare: sum of squares over `axes` (all when absent); axes attribute before 18, input from 18.

As onnx's function body (Mul, then ReduceSum): integers wrap as the type's own arithmetic does, half
precision squares and adds in float32; an empty set gives 0.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import accumulator, reduction_axes
from conformance.kernels.registry import kernel


def _sum_square(data: np.ndarray, ax: tuple[int, ...], keepdims: int) -> np.ndarray:
    x = data.astype(accumulator(data))
    y = np.sum(x * x, axis=ax, keepdims=bool(keepdims))
    return np.asarray(y).astype(data.dtype)


@kernel("ai.onnx", "ReduceSumSquare", since=1, until=17)
def reduce_sum_square_attr(data: np.ndarray, *, axes: list[int] | None, keepdims: int) -> tuple[np.ndarray, ...]:
    return (_sum_square(data, reduction_axes("ReduceSumSquare", data.ndim, axes, 0), keepdims),)


@kernel("ai.onnx", "ReduceSumSquare", since=18)
def reduce_sum_square(data: np.ndarray, axes: np.ndarray | None, *, keepdims: int,
                      noop_with_empty_axes: int) -> tuple[np.ndarray, ...]:
    return (_sum_square(data, reduction_axes("ReduceSumSquare", data.ndim, axes, noop_with_empty_axes), keepdims),)
