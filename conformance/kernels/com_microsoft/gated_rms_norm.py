"""com.microsoft GatedRMSNorm: Y = X / sqrt(mean(X^2) + epsilon) * scale * act(gate), the mean over each run of C
(scale's length) consecutive elements of the last axis; act is SiLU (silu, swish) or the sigmoid. In float32,
rounded once to X's type."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel

OP = "GatedRMSNorm"


@kernel("com.microsoft", "GatedRMSNorm", since=1)
def gated_rms_norm(x: np.ndarray, scale: np.ndarray, gate: np.ndarray, *, activation: str,
                   epsilon: float) -> tuple[np.ndarray, ...]:
    if x.ndim < 1 or scale.ndim != 1 or scale.shape[0] == 0 or x.shape[-1] % scale.shape[0]:
        raise ValueError(f"{OP}: X's last dim {x.shape[-1:]} must be a multiple of scale's length {scale.shape}")
    if gate.shape != x.shape:
        raise ValueError(f"{OP}: gate {gate.shape} must have X's shape {x.shape}")
    c = scale.shape[0]
    runs = x.astype(np.float32).reshape(*x.shape[:-1], -1, c)
    inv_rms = 1 / np.sqrt(np.mean(runs * runs, axis=-1, keepdims=True, dtype=np.float32) + np.float32(epsilon))
    z = gate.astype(np.float32).reshape(runs.shape)
    sigmoid = 1 / (1 + np.exp(-z))
    if activation in ("silu", "swish"):
        act = z * sigmoid
    elif activation == "sigmoid":
        act = sigmoid
    else:
        raise ValueError(f"{OP}: activation must be silu, swish or sigmoid, got {activation!r}")
    y = runs * inv_rms * scale.astype(np.float32) * act
    return (y.reshape(x.shape).astype(x.dtype),)
