"""com.microsoft SkipSimplifiedLayerNormalization: s = input + skip (+ bias), then RMS normalization of each row of s
over the hidden axis: s / sqrt(mean(s^2) + epsilon) * gamma. Also gives the row means (zeros: an RMS norm
subtracts no mean, and onnxruntime writes 0), the inverse RMS (float, shape (..., 1)) and s itself."""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft._skip_norm import skip_sum
from conformance.kernels.registry import kernel

OP = "SkipSimplifiedLayerNormalization"


@kernel("com.microsoft", "SkipSimplifiedLayerNormalization", since=1)
def skip_simplified_layer_normalization(x: np.ndarray, skip: np.ndarray, gamma: np.ndarray, bias: np.ndarray | None,
                                        *, epsilon: float) -> tuple[np.ndarray, ...]:
    s, wt = skip_sum(OP, x, skip, gamma, {"bias": bias})
    inv_rms = 1 / np.sqrt(np.mean(s * s, axis=-1, keepdims=True, dtype=wt) + wt.type(epsilon))
    y = s * inv_rms * gamma.astype(wt)
    zeros = np.zeros(inv_rms.shape, np.float32)
    return (y.astype(x.dtype), zeros, inv_rms.astype(np.float32), s.astype(x.dtype))
