"""com.microsoft LinearAttention: a (d_k, d_v) recurrent state per key/value head, updated token by token and read
by the queries, over packed (B, T, H * D) inputs.

With e = exp(decay) (per head or per key dimension) and b = beta (per head or shared), each token updates S by
the rule (linear: S + k v^T; gated: e S + k v^T; delta: S + b k (v - S^T k)^T; gated_delta: the delta rule on
e S) and head h emits scale * q^T S (scale 0 means 1 / sqrt(d_k)). With more query than KV heads (GQA) query
head h reads KV head h // (H_q / H_kv); with more KV heads (inverse GQA) KV head j is read by query head
j // (H_kv / H_q) and the output has one head per KV head. With state_window W > 0 the states are (W, B, H_kv,
d_k, d_v): past_state's slot W - 1 is read, and present slot j holds the state after token T - W + j (zeros
where that token is not in this call). Computed in double, sequentially over the tokens.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("com.microsoft", "LinearAttention", since=1)
def linear_attention(query: np.ndarray, key: np.ndarray, value: np.ndarray, past_state: np.ndarray | None,
                     decay: np.ndarray | None, beta: np.ndarray | None, *, kv_num_heads: int, q_num_heads: int,
                     scale: float, state_window: int, update_rule: str) -> tuple[np.ndarray, ...]:
    batch, steps, _ = query.shape
    hq, hkv = q_num_heads, kv_num_heads
    if query.shape[2] % hq or key.shape[2] % hkv or value.shape[2] % hkv or (hq % hkv and hkv % hq):
        raise ValueError(f"LinearAttention: widths {query.shape[2]}, {key.shape[2]}, {value.shape[2]} do not "
                         f"split into {hq} query and {hkv} key/value heads that group")
    dk, dv = key.shape[2] // hkv, value.shape[2] // hkv
    if query.shape[2] // hq != dk:
        raise ValueError(f"LinearAttention: query head size {query.shape[2] // hq} differs from key's {dk}")
    gated, delta = update_rule in ("gated", "gated_delta"), update_rule in ("delta", "gated_delta")
    if (gated and decay is None) or (delta and beta is None):
        raise ValueError(f"LinearAttention: update_rule {update_rule} needs the decay and/or beta input")
    heads = max(hq, hkv)
    q = query.astype(np.float64).reshape(batch, steps, hq, dk)
    k = key.astype(np.float64).reshape(batch, steps, hkv, dk)
    v = value.astype(np.float64).reshape(batch, steps, hkv, dv)
    # the pairing of query and KV heads, spread to `heads` (one output per pair)
    q_of = np.arange(heads) // max(1, hkv // hq) if hkv > hq else np.arange(heads)
    kv_of = np.arange(heads) // max(1, hq // hkv) if hq >= hkv else np.arange(heads)
    factor = scale if scale > 0 else 1.0 / np.sqrt(dk)
    state_shape = (batch, hkv, dk, dv)
    if past_state is None:
        state = np.zeros(state_shape)
    else:
        slot = past_state[-1] if state_window > 0 else past_state
        if slot.shape != state_shape:
            raise ValueError(f"LinearAttention: past_state {past_state.shape} does not hold {state_shape} states")
        state = slot.astype(np.float64)
    gates = None if decay is None else np.exp(decay.astype(np.float64)).reshape(batch, steps, hkv, -1)
    rates = None if beta is None else np.broadcast_to(beta.astype(np.float64), (batch, steps, hkv))
    out = np.empty((batch, steps, heads, dv))
    window = np.zeros((state_window, *state_shape))
    for t in range(steps):
        kt, vt = k[:, t], v[:, t]
        if gated and gates is not None:
            state = gates[:, t][..., None] * state
        if delta and rates is not None:
            error = vt - np.einsum("bhkv,bhk->bhv", state, kt)
            state = state + rates[:, t][..., None, None] * kt[..., :, None] * error[..., None, :]
        else:
            state = state + kt[..., :, None] * vt[..., None, :]
        out[:, t] = factor * np.einsum("bhk,bhkv->bhv", q[:, t][:, q_of], state[:, kv_of])
        slot_index = t - (steps - state_window)
        if 0 <= slot_index < state_window:
            window[slot_index] = state
    state_dtype = past_state.dtype if past_state is not None else query.dtype
    present = window if state_window > 0 else state
    return out.reshape(batch, steps, heads * dv).astype(query.dtype), present.astype(state_dtype)
