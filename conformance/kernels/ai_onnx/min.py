"""Min: the elementwise smallest of a variadic list (one shape before opset 8, numpy broadcasting from 8).

NaN wins: a NaN in any input gives NaN at that position (numpy's minimum, as onnxruntime does).
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import broadcast_shape, same_shapes
from conformance.kernels.registry import kernel


def _min(data: tuple[np.ndarray, ...]) -> tuple[np.ndarray, ...]:
    if not data:
        raise ValueError("Min: needs at least one input")
    out = np.broadcast_to(data[0], broadcast_shape("Min", *data))
    for x in data[1:]:
        out = np.minimum(out, x)
    return (np.array(out, dtype=data[0].dtype),)


@kernel("ai.onnx", "Min", since=1, until=7)
def min_same_shape(*data: np.ndarray) -> tuple[np.ndarray, ...]:
    same_shapes("Min", data)
    return _min(data)


@kernel("ai.onnx", "Min", since=8)
def min_(*data: np.ndarray) -> tuple[np.ndarray, ...]:
    return _min(data)
