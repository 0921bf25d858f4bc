"""com.microsoft SparseAttention: causal block-sparse grouped-query attention with a KV cache in linear buffers
(Phi-3-small).

Batch entry b has total length L_b = key_total_sequence_lengths[b] and past length P_b = L_b - S; its new keys
and values are written into the caches at positions [P_b, L_b) (present_key / present_value are the caches with
those rows replaced, the other rows as given). Query row i sits at position P_b + i and attends to the cached
positions j <= P_b + i whose block (i.e. (P_b + i) // block, j // block) is set in the block mask of its layout:
query head h uses layout h % num_layout (the CSR rows block_row_indices / block_col_indices) and KV head
h // (num_heads / kv_num_heads). With do_rotary the new query and key rows are rotated at their positions with
cos_cache / sin_cache (halves, or interleaved pairs). Softmax of scale * q k^T (scale absent or 0 means
1 / sqrt(head size)), computed in double and rounded once to T. Packed QKV splits query's last axis into num_heads,
kv_num_heads and kv_num_heads heads.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


def _rotate(x: np.ndarray, cos: np.ndarray, sin: np.ndarray, interleaved: bool) -> np.ndarray:
    """x (..., S, D) rotated with cos / sin (S, D / 2)."""
    if interleaved:
        a, b = x[..., 0::2], x[..., 1::2]
        out = np.empty_like(x)
        out[..., 0::2] = a * cos - b * sin
        out[..., 1::2] = b * cos + a * sin
        return out
    half = x.shape[-1] // 2
    a, b = x[..., :half], x[..., half:]
    rotated: np.ndarray = np.concatenate([a * cos - b * sin, b * cos + a * sin], axis=-1)
    return rotated


def _block_masks(rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """(num_layout, max_blocks, max_blocks) dense masks from the CSR rows."""
    layouts, blocks = rows.shape[0], rows.shape[1] - 1
    mask = np.zeros((layouts, blocks, blocks), bool)
    for n in range(layouts):
        for r in range(blocks):
            for c in cols[n, int(rows[n, r]):int(rows[n, r + 1])]:
                if 0 <= c < blocks:
                    mask[n, r, int(c)] = True
    return mask


@kernel("com.microsoft", "SparseAttention", since=1)
def sparse_attention(query: np.ndarray, key: np.ndarray | None, value: np.ndarray | None, past_key: np.ndarray,
                     past_value: np.ndarray, block_row_indices: np.ndarray, block_col_indices: np.ndarray,
                     total_sequence_length: np.ndarray, key_total_sequence_lengths: np.ndarray,
                     cos_cache: np.ndarray | None, sin_cache: np.ndarray | None, *, do_rotary: int | None,
                     kv_num_heads: int, num_heads: int, rotary_interleaved: int | None, scale: float | None,
                     sparse_block_size: int) -> tuple[np.ndarray, ...]:
    op = "SparseAttention"
    batch, steps, width = query.shape
    hs = past_key.shape[-1]
    if (key is None) != (value is None):
        raise ValueError(f"{op}: key and value are given together or packed into query")
    f64 = np.float64
    if key is None or value is None:
        if width != (num_heads + 2 * kv_num_heads) * hs:
            raise ValueError(f"{op}: packed width {width} is not (num_heads + 2 * kv_num_heads) * {hs}")
        q = query[..., :num_heads * hs]
        k = query[..., num_heads * hs:(num_heads + kv_num_heads) * hs]
        v = query[..., (num_heads + kv_num_heads) * hs:]
    else:
        q, k, v = query, key, value
    if num_heads % kv_num_heads or q.shape[-1] != num_heads * hs or k.shape[-1] != kv_num_heads * hs:
        raise ValueError(f"{op}: widths do not split into {num_heads} query and {kv_num_heads} KV heads of {hs}")
    qh = q.astype(f64).reshape(batch, steps, num_heads, hs).transpose(0, 2, 1, 3)
    kh = k.astype(f64).reshape(batch, steps, kv_num_heads, hs).transpose(0, 2, 1, 3)
    vh = v.astype(f64).reshape(batch, steps, kv_num_heads, hs).transpose(0, 2, 1, 3)
    capacity = past_key.shape[2]
    masks = _block_masks(block_row_indices, block_col_indices)
    layouts = masks.shape[0]
    if num_heads % layouts:
        raise ValueError(f"{op}: {layouts} layouts do not divide {num_heads} heads")
    present_k, present_v = past_key.astype(f64).copy(), past_value.astype(f64).copy()
    factor = scale if scale else 1.0 / np.sqrt(hs)  # absent (or 0): 1 / sqrt(head size)
    group = num_heads // kv_num_heads
    out = np.zeros((batch, num_heads, steps, hs))
    for b in range(batch):
        total = int(key_total_sequence_lengths[b])
        past = total - steps
        if past < 0 or total > capacity:
            raise ValueError(f"{op}: key_total_sequence_lengths[{b}]={total} must lie in [{steps}, {capacity}]")
        pos = past + np.arange(steps)
        qb, kb = qh[b], kh[b]
        if do_rotary:
            if cos_cache is None or sin_cache is None:
                raise ValueError(f"{op}: do_rotary needs cos_cache and sin_cache")
            cos, sin = cos_cache.astype(f64)[pos], sin_cache.astype(f64)[pos]
            qb, kb = _rotate(qb, cos, sin, bool(rotary_interleaved)), _rotate(kb, cos, sin, bool(rotary_interleaved))
        present_k[b, :, past:total] = kb
        present_v[b, :, past:total] = vh[b]
        keys, vals = present_k[b, :, :total], present_v[b, :, :total]
        j = np.arange(total)
        for h in range(num_heads):
            allowed = (j[None, :] <= pos[:, None]) & \
                masks[h % layouts][(pos // sparse_block_size)[:, None], (j // sparse_block_size)[None, :]]
            logits = factor * qb[h] @ keys[h // group].T
            logits = np.where(allowed, logits, -np.inf)
            weights = np.exp(logits - logits.max(axis=-1, keepdims=True))
            weights /= weights.sum(axis=-1, keepdims=True)
            out[b, h] = weights @ vals[h // group]
    result = out.transpose(0, 2, 1, 3).reshape(batch, steps, num_heads * hs)
    return result.astype(query.dtype), present_k.astype(past_key.dtype), present_v.astype(past_value.dtype)
