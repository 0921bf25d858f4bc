"""com.microsoft GatedRelativePositionBias: relative position bias gated per query token (WavLM's gated relative
position bias).

Q = query_layer + query_bias in heads (batch, num_heads, seq, head_size); with token_offset the query_layer is
packed (token_count, hidden) and token_offset (batch, seq) gives, for each packed row i < token_count, its padded
position (the rest are the padding positions, which get query_bias alone). G = Q @ weight + bias (batch,
num_heads, seq, D); u = sigmoid(sum of G's first D / 2), r = sigmoid(sum of the last D / 2); the gate is
u * (r * eco_a[head] - 1) + 2, and output = gate * rel_pos (batch, num_heads, seq, seq).
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel

OP = "GatedRelativePositionBias"


@kernel("com.microsoft", OP, since=1)
def gated_relative_position_bias(query_layer: np.ndarray, query_bias: np.ndarray, rel_pos: np.ndarray,
                                 weight: np.ndarray, bias: np.ndarray, eco_a: np.ndarray,
                                 token_offset: np.ndarray | None, *, num_heads: int) -> tuple[np.ndarray, ...]:
    hidden = query_layer.shape[-1]
    if hidden % num_heads or query_bias.shape != (hidden,):
        raise ValueError(f"{OP}: hidden {hidden} must be a multiple of num_heads {num_heads} and query_bias "
                         f"({hidden},), got {query_bias.shape}")
    head = hidden // num_heads
    qb = query_bias.astype(np.float64)
    if token_offset is None:
        if query_layer.ndim != 3:
            raise ValueError(f"{OP}: query_layer must be (batch, seq, hidden) without token_offset")
        batch, seq = query_layer.shape[:2]
        q = query_layer.astype(np.float64) + qb
    else:
        if query_layer.ndim != 2 or token_offset.ndim != 2:
            raise ValueError(f"{OP}: with token_offset query_layer is (token_count, hidden) and token_offset "
                             f"(batch, seq), got {query_layer.shape} and {token_offset.shape}")
        batch, seq = token_offset.shape
        count = query_layer.shape[0]
        offsets = token_offset.reshape(-1).astype(np.int64)
        if count > batch * seq or sorted(offsets.tolist()) != list(range(batch * seq)):
            raise ValueError(f"{OP}: token_offset must be a permutation of the {batch * seq} padded positions "
                             f"covering the {count} tokens")
        flat = np.broadcast_to(qb, (batch * seq, hidden)).copy()
        flat[offsets[:count]] = query_layer.astype(np.float64) + qb
        q = flat.reshape(batch, seq, hidden)
    d = weight.shape[-1] if weight.ndim == 2 else -1
    if weight.shape != (head, d) or d % 2 or bias.shape != (d,) or eco_a.shape != (1, num_heads, 1, 1) \
            or rel_pos.shape != (1, num_heads, seq, seq):
        raise ValueError(f"{OP}: weight ({head}, even D), bias (D), eco_a (1, {num_heads}, 1, 1) and rel_pos "
                         f"(1, {num_heads}, {seq}, {seq}) expected, got {weight.shape}, {bias.shape}, {eco_a.shape}, "
                         f"{rel_pos.shape}")
    qh = q.reshape(batch, seq, num_heads, head).transpose(0, 2, 1, 3)
    g = qh @ weight.astype(np.float64) + bias.astype(np.float64)  # (batch, heads, seq, D)
    u = 1.0 / (1.0 + np.exp(-g[..., :d // 2].sum(-1)))
    r = 1.0 / (1.0 + np.exp(-g[..., d // 2:].sum(-1)))
    gate = u * (r * eco_a.astype(np.float64).reshape(1, num_heads, 1) - 1.0) + 2.0  # (batch, heads, seq)
    out = gate[..., None] * rel_pos.astype(np.float64)
    return (out.astype(query_layer.dtype),)
