"""Add_ (ai.onnx.modified): adds a 1-D bias along the last (channel) axis, as tf.nn.bias_add on NHWC."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx.modified", "Add_", since=1)
def add_(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, ...]:
    if a.ndim < 1 or b.ndim != 1 or b.shape[0] != a.shape[-1]:
        raise ValueError(f"Add_: B must be a vector of the last dimension of A {a.shape}, got {b.shape}")
    return ((a + b).astype(a.dtype, copy=False),)
