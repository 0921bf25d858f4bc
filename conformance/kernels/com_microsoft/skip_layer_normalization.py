"""com.microsoft SkipLayerNormalization: s = input + skip (+ bias), then layer normalization of each row of s over the
hidden axis: (s - mean) / sqrt(var + epsilon) * gamma (+ beta). Also gives the row means and inverse standard
deviations (float, shape (..., 1)) and s itself. Computed in float32 (double for double), rounded once."""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft._skip_norm import skip_sum
from conformance.kernels.registry import kernel

OP = "SkipLayerNormalization"


@kernel("com.microsoft", "SkipLayerNormalization", since=1)
def skip_layer_normalization(x: np.ndarray, skip: np.ndarray, gamma: np.ndarray, beta: np.ndarray | None,
                             bias: np.ndarray | None, *, epsilon: float) -> tuple[np.ndarray, ...]:
    s, wt = skip_sum(OP, x, skip, gamma, {"beta": beta, "bias": bias})
    mean = np.mean(s, axis=-1, keepdims=True, dtype=wt)
    deviation = s - mean
    variance = np.mean(deviation * deviation, axis=-1, keepdims=True, dtype=wt)
    inv_std = 1 / np.sqrt(variance + wt.type(epsilon))
    y = deviation * inv_std * gamma.astype(wt)
    if beta is not None:
        y = y + beta.astype(wt)
    return (y.astype(x.dtype), mean.astype(np.float32), inv_std.astype(np.float32), s.astype(x.dtype))
