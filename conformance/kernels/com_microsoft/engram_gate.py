"""com.microsoft EngramGate: the Engram memory gate per (token, hyper-connection).

rms(x, g) = x / sqrt(mean(x^2 over H) + epsilon) * g; dot = sum_h rms(key, key_norm_scale) *
rms(query, query_norm_scale) / sqrt(H); gate = sigmoid(sign(dot) * sqrt(max(|dot|, 1e-6))); output[b, s, m, h] =
gate[b, s, m] * value[b, s, h]; gated_value_normed = rms(output, conv_norm_scale). Computed in double and rounded
once to the input type.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


def _rms(x: np.ndarray, scale: np.ndarray, epsilon: float) -> np.ndarray:
    out: np.ndarray = x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + epsilon) * scale
    return out


@kernel("com.microsoft", "EngramGate", since=1)
def engram_gate(key: np.ndarray, query: np.ndarray, value: np.ndarray, key_norm_scale: np.ndarray,
                query_norm_scale: np.ndarray, conv_norm_scale: np.ndarray | None, *,
                epsilon: float) -> tuple[np.ndarray, ...]:
    if key.ndim != 4 or query.shape != key.shape:
        raise ValueError(f"EngramGate: key {key.shape} and query {query.shape} must be one (B, S, M, H) shape")
    b, s, m, h = key.shape
    if value.shape != (b, s, h):
        raise ValueError(f"EngramGate: value {value.shape} must be (B, S, H) = {(b, s, h)}")
    for name, scale in (("key_norm_scale", key_norm_scale), ("query_norm_scale", query_norm_scale),
                        ("conv_norm_scale", conv_norm_scale)):
        if scale is not None and scale.shape != (m, h):
            raise ValueError(f"EngramGate: {name} {scale.shape} must be (M, H) = {(m, h)}")
    f64 = np.float64
    dot = (_rms(key.astype(f64), key_norm_scale.astype(f64), epsilon)
           * _rms(query.astype(f64), query_norm_scale.astype(f64), epsilon)).sum(axis=-1) / np.sqrt(h)
    z = np.sign(dot) * np.sqrt(np.maximum(np.abs(dot), 1e-6))
    gate = 0.5 * (1.0 + np.tanh(0.5 * z))
    out = gate[..., None] * value.astype(f64)[:, :, None, :]
    if conv_norm_scale is None:
        return (out.astype(key.dtype),)
    return out.astype(key.dtype), _rms(out, conv_norm_scale.astype(f64), epsilon).astype(key.dtype)
