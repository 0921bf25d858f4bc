"""LinearAttention (27): a recurrent state per key/value head, updated token by token, read by the queries.

With S the (d_k, d_v) state of a head, e = exp(decay) and b = beta at the step (per key dimension or per
head), each token updates S by the rule (linear: S + k v^T; gated: e S + k v^T; delta: S + b k (v - S^T k)^T;
gated_delta: the delta rule on e S) and emits scale * q^T S. Query head h reads key/value head
h // (q_num_heads / kv_num_heads). Computed in double, sequentially over the tokens (the op's meaning; the
chunk size is a tuning hint that never reaches the kernel).
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


def _per_head(x: np.ndarray, heads: int) -> np.ndarray:
    b, t, width = x.shape
    return x.astype(np.float64).reshape(b, t, heads, width // heads)


@kernel("ai.onnx", "LinearAttention", since=27)
def linear_attention(query: np.ndarray, key: np.ndarray, value: np.ndarray, past_state: np.ndarray | None,
                     decay: np.ndarray | None, beta: np.ndarray | None, *, kv_num_heads: int, q_num_heads: int,
                     scale: float, update_rule: str) -> tuple[np.ndarray, ...]:
    q, k, v = _per_head(query, q_num_heads), _per_head(key, kv_num_heads), _per_head(value, kv_num_heads)
    batch, steps, _, dk = k.shape
    dv = v.shape[-1]
    group = q_num_heads // kv_num_heads
    factor = scale if scale > 0 else 1.0 / np.sqrt(query.shape[-1] // q_num_heads)
    state = np.zeros((batch, kv_num_heads, dk, dv)) if past_state is None else past_state.astype(np.float64)
    gated, delta = update_rule in ("gated", "gated_delta"), update_rule in ("delta", "gated_delta")
    if (gated and decay is None) or (delta and beta is None):
        raise ValueError(f"LinearAttention: update_rule {update_rule} needs the decay and/or beta input")
    # decay: one gate per key dimension (B, T, H*dk) or per head (B, T, H); beta: per head (B, T, H) or shared
    gates = None if decay is None else decay.astype(np.float64).reshape(batch, steps, kv_num_heads, -1)
    rates = None if beta is None else np.broadcast_to(beta.astype(np.float64), (batch, steps, kv_num_heads))
    out = np.empty((batch, steps, q_num_heads, dv))
    for t in range(steps):
        kt, vt = k[:, t], v[:, t]  # (B, H, dk), (B, H, dv)
        if gated and gates is not None:
            state = np.exp(gates[:, t])[..., None] * state  # (B, H, dk or 1, 1) over (B, H, dk, dv)
        if delta and rates is not None:
            error = vt - np.einsum("bhkv,bhk->bhv", state, kt)
            state = state + rates[:, t][..., None, None] * kt[..., :, None] * error[..., None, :]
        else:
            state = state + kt[..., :, None] * vt[..., None, :]
        shared = np.repeat(state, group, axis=1)  # (B, Hq, dk, dv)
        out[:, t] = factor * np.einsum("bhk,bhkv->bhv", q[:, t], shared)
    state_dtype = past_state.dtype if past_state is not None else query.dtype  # S: the past state's type
    return out.reshape(batch, steps, q_num_heads * dv).astype(query.dtype), state.astype(state_dtype)
