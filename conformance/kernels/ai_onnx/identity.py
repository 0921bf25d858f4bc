"""Identity: a copy of the input tensor (sequence and optional values are not supported here)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Identity", since=1)
def identity(x: np.ndarray) -> tuple[np.ndarray, ...]:
    if not isinstance(x, np.ndarray):
        raise ValueError(f"Identity: only tensors are supported, got {type(x).__name__}")
    return (x.copy(),)
