"""ImageScaler (onnxruntime's default domain, onnx's experimental op): y = scale * x + bias[c] over an [N, C, H, W]
image."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx.ort", "ImageScaler", since=1)
def image_scaler(x: np.ndarray, *, scale: float, bias: list[float] | None) -> tuple[np.ndarray, ...]:
    if x.ndim != 4:
        raise ValueError(f"ImageScaler: a 4-D [N, C, H, W] input, got {x.shape}")
    b = np.zeros(x.shape[1], x.dtype) if bias is None else np.asarray(bias, x.dtype)
    if b.shape != (x.shape[1],):
        raise ValueError(f"ImageScaler: {b.size} biases for {x.shape[1]} channels")
    return ((x * np.asarray(scale, x.dtype) + b.reshape(1, -1, 1, 1)).astype(x.dtype),)
