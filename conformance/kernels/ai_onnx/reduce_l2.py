"""ReduceL2: square root of the sum of squares over `axes` (all when absent); axes attribute before 18, input
from 18.

Floats compute in their own precision (float32 for half precision); integers sum their squares exactly (in
64 bits) and take the square root in double, truncated toward zero as Cast converts it. An empty set gives 0.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import accumulator, reduction_axes, to_integer
from conformance.kernels.registry import kernel


def _l2(data: np.ndarray, ax: tuple[int, ...], keepdims: int) -> np.ndarray:
    x = data.astype(accumulator(data))
    squares = np.asarray(np.sum(x * x, axis=ax, keepdims=bool(keepdims)))
    if data.dtype.kind in "iu":
        return to_integer("ReduceL2", np.sqrt(squares.astype(np.float64)), data.dtype)
    return np.asarray(np.sqrt(squares)).astype(data.dtype)


@kernel("ai.onnx", "ReduceL2", since=1, until=17)
def reduce_l2_attr(data: np.ndarray, *, axes: list[int] | None, keepdims: int) -> tuple[np.ndarray, ...]:
    return (_l2(data, reduction_axes("ReduceL2", data.ndim, axes, 0), keepdims),)


@kernel("ai.onnx", "ReduceL2", since=18)
def reduce_l2(data: np.ndarray, axes: np.ndarray | None, *, keepdims: int,
              noop_with_empty_axes: int) -> tuple[np.ndarray, ...]:
    return (_l2(data, reduction_axes("ReduceL2", data.ndim, axes, noop_with_empty_axes), keepdims),)
