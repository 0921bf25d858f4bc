"""com.microsoft LinearAttentionGate: the gate projections of the gated-delta recurrence,
decay = decay_scale * softplus(a + dt_bias) and beta = sigmoid(b), per head (the last axis). Computed in double
(onnxruntime keeps float32 intermediates) and rounded once to the input type."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("com.microsoft", "LinearAttentionGate", since=1)
def linear_attention_gate(a: np.ndarray, dt_bias: np.ndarray, decay_scale: np.ndarray,
                          b: np.ndarray | None) -> tuple[np.ndarray, ...]:
    heads = a.shape[-1]
    if dt_bias.shape != (heads,) or decay_scale.shape != (heads,):
        raise ValueError(f"LinearAttentionGate: dt_bias {dt_bias.shape} and decay_scale {decay_scale.shape} must "
                         f"be ({heads},)")
    z = a.astype(np.float64) + dt_bias.astype(np.float64)
    decay = decay_scale.astype(np.float64) * np.logaddexp(0.0, z)
    if b is None:
        return (decay.astype(a.dtype),)
    if b.shape != a.shape:
        raise ValueError(f"LinearAttentionGate: b {b.shape} must match a {a.shape}")
    beta = 0.5 * (1.0 + np.tanh(0.5 * b.astype(np.float64)))
    return decay.astype(a.dtype), beta.astype(a.dtype)
