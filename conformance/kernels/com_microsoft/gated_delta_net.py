"""com.microsoft GatedDeltaNet: token-major gated delta network with an explicit float recurrent state.

Per request (cu_seqlens, else a uniform split into initial_state's batch, or the rank-4 (B, S, ...) spelling) and
per value head j, reading query/key head j // (H_v / H_q), with S the (d_qk, d_v) state (stored V-major) and
e_t = exp(g_t):  S_t = e_t S_{t-1} + k_t (beta_t (v_t - e_t S_{t-1}^T k_t))^T,  o_t = scale * S_t^T q_t;
'linear' drops the decay and the retrieval, 'gated' keeps the decay only, 'delta' the retrieval only. g is
decay itself ('none'), -exp(a_log) * softplus(decay + dt_bias) ('softplus', 'qwen') or gate_lower_bound *
sigmoid(exp(a_log) * (decay + dt_bias)) ('sigmoid', 'kda'); beta optionally through a sigmoid; qk_l2_norm
normalises each query and key head vector (q / sqrt(sum q^2 + 1e-6)). Packed QKV splits query's last axis into
q (H_q d_qk), k (H_q d_qk) and v (H_v d_v). scale 0 means 1 / sqrt(d_qk).

state_update (capacity C > 0): request b's row holds, for its first min(capture_count[b], C, length) tokens
(all when state_update_active is 0: none, the row is zeros), the factors of each transition as struct-of-arrays:
C decay factors e (per head, or per head and key dimension), then C keys (H_q d_qk, normalised), then C deltas
beta (v - e S^T k) (H_v d_v); slots after the captured ones are zeros here (onnxruntime leaves them unspecified).
Computed in double, sequentially over the tokens; the output is rounded once to T, the states stay float.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


def _sigmoid(x: np.ndarray) -> np.ndarray:
    out: np.ndarray = 0.5 * (1.0 + np.tanh(0.5 * x))
    return out


@kernel("com.microsoft", "GatedDeltaNet", since=1)
def gated_delta_net(query: np.ndarray, key: np.ndarray | None, value: np.ndarray | None,
                    cu_seqlens: np.ndarray | None, decay: np.ndarray | None, beta: np.ndarray | None,
                    initial_state: np.ndarray | None, a_log: np.ndarray | None, dt_bias: np.ndarray | None,
                    capture_count: np.ndarray | None, state_update_active: np.ndarray | None, *,
                    beta_activation: str, gate_activation: str, gate_lower_bound: float,
                    qk_l2_norm: int, scale: float, state_update_capacity: int,
                    update_rule: str) -> tuple[np.ndarray, ...]:
    op = "GatedDeltaNet"
    f64 = np.float64
    if key is None or value is None:
        if key is not None or value is not None or initial_state is None:
            raise ValueError(f"{op}: packed QKV omits both key and value and needs initial_state")
        _, hv, dv, dqk = initial_state.shape
        width = query.shape[-1]
        if (width - hv * dv) % (2 * dqk) or width <= hv * dv:
            raise ValueError(f"{op}: packed width {width} is not 2 * H_q * {dqk} + {hv} * {dv}")
        hq = (width - hv * dv) // (2 * dqk)
        lead = query.shape[:-1]
        flat = query.astype(f64).reshape(-1, width)
        q = flat[:, :hq * dqk].reshape(-1, hq, dqk)
        k = flat[:, hq * dqk:2 * hq * dqk].reshape(-1, hq, dqk)
        v = flat[:, 2 * hq * dqk:].reshape(-1, hv, dv)
    else:
        hq, dqk, hv, dv = query.shape[-2], query.shape[-1], value.shape[-2], value.shape[-1]
        if key.shape != query.shape or value.shape[:-2] != query.shape[:-2]:
            raise ValueError(f"{op}: query {query.shape}, key {key.shape} and value {value.shape} do not agree")
        lead = query.shape[:-2]
        q, k, v = (a.astype(f64).reshape(-1, *a.shape[-2:]) for a in (query, key, value))
    if hq <= 0 or hv % hq:
        raise ValueError(f"{op}: value heads {hv} must be a multiple of query/key heads {hq}")
    tokens = q.shape[0]
    if cu_seqlens is not None:
        cu = cu_seqlens.astype(np.int64)
    else:
        batch = int(lead[0]) if len(lead) == 2 else (initial_state.shape[0] if initial_state is not None else 1)
        if batch <= 0 or tokens % batch:
            raise ValueError(f"{op}: {tokens} tokens do not split uniformly into {batch} requests")
        cu = np.arange(batch + 1) * (tokens // batch)
    batch = cu.shape[0] - 1
    if cu[0] != 0 or cu[-1] != tokens or (np.diff(cu) < 0).any():
        raise ValueError(f"{op}: cu_seqlens {cu.tolist()} must rise from 0 to {tokens}")
    if initial_state is not None and initial_state.shape != (batch, hv, dv, dqk):
        raise ValueError(f"{op}: initial_state {initial_state.shape} must be {(batch, hv, dv, dqk)}")
    gated, delta = update_rule in ("gated", "gated_delta"), update_rule in ("delta", "gated_delta")
    if (gated and decay is None) or (delta and beta is None):
        raise ValueError(f"{op}: update_rule {update_rule} needs the decay and/or beta input")
    if qk_l2_norm:
        q = q / np.sqrt((q * q).sum(axis=-1, keepdims=True) + 1e-6)
        k = k / np.sqrt((k * k).sum(axis=-1, keepdims=True) + 1e-6)
    g = None
    if gated and decay is not None:
        raw = decay.astype(np.float32).astype(f64).reshape(tokens, hv, -1)  # (T, hv, 1 or dqk)
        if gate_activation != "none":
            if a_log is None or dt_bias is None:
                raise ValueError(f"{op}: gate_activation {gate_activation} needs a_log and dt_bias")
            z = raw + dt_bias.astype(f64).reshape(1, hv, -1)
            a = np.exp(a_log.astype(f64)).reshape(1, hv, 1)
            g = -a * np.logaddexp(0.0, z) if gate_activation in ("softplus", "qwen") else \
                gate_lower_bound * _sigmoid(a * z)
        else:
            g = raw
    rate = None
    if delta and beta is not None:
        rate = beta.astype(np.float32).astype(f64).reshape(tokens, hv)
        if beta_activation == "sigmoid":
            rate = _sigmoid(rate)
    factor = scale if scale > 0 else 1.0 / np.sqrt(dqk)
    qk_of = np.arange(hv) // (hv // hq)
    out = np.zeros((tokens, hv, dv))
    state0 = np.zeros((batch, hv, dqk, dv)) if initial_state is None else \
        np.swapaxes(initial_state.astype(f64), -1, -2)
    final = np.zeros((batch, hv, dqk, dv))
    decay_width = hv if g is None or g.shape[-1] == 1 else hv * dqk
    cap = state_update_capacity
    updates = np.zeros((batch, cap * (decay_width + hq * dqk + hv * dv)))
    active = state_update_active is None or int(np.asarray(state_update_active).reshape(-1)[0]) != 0
    for b in range(batch):
        s = state0[b]
        lo, hi = int(cu[b]), int(cu[b + 1])
        captured = 0
        if cap > 0 and active and capture_count is not None:
            captured = int(np.clip(capture_count[b], 0, min(cap, hi - lo)))
        for t in range(lo, hi):
            kt, vt = k[t][qk_of], v[t]  # (hv, dqk), (hv, dv)
            e = np.exp(g[t]) if g is not None else np.ones((hv, 1))  # (hv, 1 or dqk)
            decayed = e[:, :, None] * s if gated else s
            if delta and rate is not None:
                d = rate[t][:, None] * (vt - np.einsum("hkv,hk->hv", decayed, kt))
            else:
                d = vt
            s = decayed + kt[:, :, None] * d[:, None, :]
            out[t] = factor * np.einsum("hk,hkv->hv", q[t][qk_of], s)
            c = t - lo
            if c < captured:
                row = updates[b]
                width_k, width_v = hq * dqk, hv * dv
                row[c * decay_width:(c + 1) * decay_width] = np.broadcast_to(e, (hv, e.shape[-1])).reshape(-1)
                base = cap * decay_width
                row[base + c * width_k:base + (c + 1) * width_k] = k[t].reshape(-1)
                base += cap * width_k
                row[base + c * width_v:base + (c + 1) * width_v] = d.reshape(-1)
        final[b] = s
    heads = max(hq, hv)
    return (out.reshape(*lead, heads, dv).astype(query.dtype), np.swapaxes(final, -1, -2).astype(np.float32),
            updates.astype(np.float32))
