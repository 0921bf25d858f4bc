"""Max: the elementwise largest of a variadic list (one shape before opset 8, numpy broadcasting from 8).

NaN wins: a NaN in any input gives NaN at that position (numpy's maximum, as onnxruntime does).
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import broadcast_shape, same_shapes
from conformance.kernels.registry import kernel


def _max(data: tuple[np.ndarray, ...]) -> tuple[np.ndarray, ...]:
    if not data:
        raise ValueError("Max: needs at least one input")
    out = np.broadcast_to(data[0], broadcast_shape("Max", *data))
    for x in data[1:]:
        out = np.maximum(out, x)
    return (np.array(out, dtype=data[0].dtype),)


@kernel("ai.onnx", "Max", since=1, until=7)
def max_same_shape(*data: np.ndarray) -> tuple[np.ndarray, ...]:
    same_shapes("Max", data)
    return _max(data)


@kernel("ai.onnx", "Max", since=8)
def max_(*data: np.ndarray) -> tuple[np.ndarray, ...]:
    return _max(data)
