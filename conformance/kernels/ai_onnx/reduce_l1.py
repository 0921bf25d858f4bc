"""ReduceL1: sum of absolute values over `axes` (all when absent); axes attribute before 18, input from 18.

As onnx's function body (Abs, then ReduceSum): integers wrap as the type's own arithmetic does, half
precision adds in float32; an empty set gives 0.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import accumulator, reduction_axes
from conformance.kernels.registry import kernel


def _l1(data: np.ndarray, ax: tuple[int, ...], keepdims: int) -> np.ndarray:
    y = np.sum(np.abs(data), axis=ax, keepdims=bool(keepdims), dtype=accumulator(data))
    return np.asarray(y).astype(data.dtype)


@kernel("ai.onnx", "ReduceL1", since=1, until=17)
def reduce_l1_attr(data: np.ndarray, *, axes: list[int] | None, keepdims: int) -> tuple[np.ndarray, ...]:
    return (_l1(data, reduction_axes("ReduceL1", data.ndim, axes, 0), keepdims),)


@kernel("ai.onnx", "ReduceL1", since=18)
def reduce_l1(data: np.ndarray, axes: np.ndarray | None, *, keepdims: int,
              noop_with_empty_axes: int) -> tuple[np.ndarray, ...]:
    return (_l1(data, reduction_axes("ReduceL1", data.ndim, axes, noop_with_empty_axes), keepdims),)
