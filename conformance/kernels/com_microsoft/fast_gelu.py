"""com.microsoft FastGelu: tanh approximation of GELU on X (+ bias when given)."""

from __future__ import annotations

import math

import numpy as np

from conformance.kernels.registry import kernel

_C = math.sqrt(2.0 / math.pi)


@kernel("com.microsoft", "FastGelu", since=1)
def fast_gelu(x: np.ndarray, bias: np.ndarray | None) -> tuple[np.ndarray, ...]:
    wt = np.float64 if x.dtype == np.float64 else np.float32
    v: np.ndarray = x.astype(wt)
    if bias is not None:
        if bias.ndim != 1 or x.ndim == 0 or bias.shape[0] != x.shape[-1]:
            raise ValueError(f"FastGelu: bias must be 1-D of the last dim of X {x.shape}, got {bias.shape}")
        v = v + bias.astype(wt)
    inner: np.ndarray = (v + 0.044715 * np.power(v, 3)) * _C
    y = 0.5 * v * (1.0 + np.tanh(inner))
    return (y.astype(x.dtype),)
