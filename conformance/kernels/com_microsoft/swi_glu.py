"""com.microsoft SwiGLU: G = min(gate, limit), L = clip(up, -limit, limit) (no clamp when limit <= 0),
output = G * sigmoid(activation_alpha * G) * (L + activation_beta). Without `up`, gate's last dim holds the gate
half first, then the up half.

onnxruntime computes in float (double for the tail where activation_alpha * G < -87, so that exp does not
underflow); the kernel computes in float64 throughout, which keeps that tail, and rounds to T once at the end, or
with round_activation also G * sigmoid(activation_alpha * G) to T first. That intermediate rounding is the op's
meaning, so the kernel takes T as it is (exact_types)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft._fused import sigmoid
from conformance.kernels.registry import kernel


@kernel("com.microsoft", "SwiGLU", since=1, exact_types=True)
def swi_glu(gate: np.ndarray, up: np.ndarray | None, *, activation_alpha: float, activation_beta: float,
            limit: float, round_activation: int) -> tuple[np.ndarray, ...]:
    if gate.ndim < 1:
        raise ValueError("SwiGLU: gate must have rank 1 or more")
    t = gate.dtype
    g = gate.astype(np.float64)
    if up is None:
        if g.shape[-1] % 2:
            raise ValueError(f"SwiGLU: without up, gate's last dim must be even, got {gate.shape}")
        half = g.shape[-1] // 2
        g, u = g[..., :half], g[..., half:]
    else:
        if up.shape != gate.shape:
            raise ValueError(f"SwiGLU: up {up.shape} must have gate's shape {gate.shape}")
        u = up.astype(np.float64)
    if limit > 0:
        g = np.minimum(g, limit)
        u = np.clip(u, -limit, limit)
    act = g * sigmoid(np.float64(activation_alpha) * g)
    if round_activation:
        act = act.astype(t).astype(np.float64)
    return (np.asarray(act * (u + np.float64(activation_beta))).astype(t),)
