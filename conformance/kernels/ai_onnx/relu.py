"""Relu: max(x, 0)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Relu", since=1)
def relu(x: np.ndarray) -> tuple[np.ndarray, ...]:
    return (np.maximum(x, x.dtype.type(0)),)
