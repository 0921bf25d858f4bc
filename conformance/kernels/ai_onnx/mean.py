"""Mean: the elementwise mean of a variadic list (one shape before opset 8, numpy broadcasting from 8).

The sum is accumulated in float32 for float16 inputs (double stays double), divided by the count, then
rounded to the input type.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import broadcast_shape, same_shapes, work_dtype
from conformance.kernels.registry import kernel


def _mean(data: tuple[np.ndarray, ...]) -> tuple[np.ndarray, ...]:
    if not data:
        raise ValueError("Mean: needs at least one input")
    total = np.zeros(broadcast_shape("Mean", *data), dtype=work_dtype(data[0]))
    for x in data:
        total += x
    return (np.asarray(total / len(data), dtype=data[0].dtype),)


@kernel("ai.onnx", "Mean", since=1, until=7)
def mean_same_shape(*data: np.ndarray) -> tuple[np.ndarray, ...]:
    same_shapes("Mean", data)
    return _mean(data)


@kernel("ai.onnx", "Mean", since=8)
def mean(*data: np.ndarray) -> tuple[np.ndarray, ...]:
    return _mean(data)
