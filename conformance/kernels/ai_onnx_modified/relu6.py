"""Relu6 (ai.onnx.modified): min(max(x, 0), 6), TensorFlow's relu6."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx.modified", "Relu6", since=1)
def relu6(x: np.ndarray) -> tuple[np.ndarray, ...]:
    y = np.clip(x, np.asarray(0, x.dtype), np.asarray(6, x.dtype))
    return (y.astype(x.dtype, copy=False),)
