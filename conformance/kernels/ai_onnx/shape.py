"""Shape: the input's dims as int64, from opset 15 only those of axes [start, end) (negative counts from the back,
both clamped to [0, rank])."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Shape", since=1, until=14)
def shape_all(data: np.ndarray) -> tuple[np.ndarray, ...]:
    return (np.array(data.shape, dtype=np.int64),)


@kernel("ai.onnx", "Shape", since=15)
def shape(data: np.ndarray, *, start: int, end: int | None) -> tuple[np.ndarray, ...]:
    # a Python slice clamps exactly as ONNX does: negative plus rank, then into [0, rank]
    return (np.array(data.shape[start:end], dtype=np.int64),)
