"""com.microsoft QAttention: multi-head self-attention whose input projection is an 8-bit integer matmul.

QKV = float32((input - input_zero_point) @ (weight - weight_zero_point)) * (input_scale * weight_scale) + bias,
accumulated exactly in int32 (weight's zero point and scale per tensor or per column of the 3 * hidden_size
outputs). Q, K and V are its three thirds, split into num_heads heads; past (2, B, N, P, H) is put before K and V
(present is their concatenation); scores = scale * Q @ K^T (scale 1/sqrt(head_size) unless given), masked, then
softmax over the P + S keys; output = scores @ V with the heads joined again.

mask_index adds mask_filter_value to the scores of the keys it hides: [B] hides keys from that end position on,
[2B] also those before the start position in its second half, [B, P+S] is a 0/1 mask (0 hides), [B, S, P+S] one
per query. unidirectional excludes the keys after the query's own position (P + i) outright (weight 0, whatever
mask_filter_value is), as onnxruntime's CPU kernel does. do_rotary is ignored (the op's reading qattention_r1), and
so is past_present_share_buffer without past.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft._qmatmul import per_tensor
from conformance.kernels.registry import kernel

OP = "QAttention"


def padding_mask(mask_index: np.ndarray | None, batch: int, seq: int, total: int) -> np.ndarray:
    """[B, S, T] booleans: True where mask_index hides a key from a query."""
    hidden = np.zeros((batch, seq, total), bool)
    if mask_index is None:
        return hidden
    keys = np.arange(total)
    m = mask_index.astype(np.int64)
    if m.shape == (batch,) or m.shape == (2 * batch,):
        hidden |= (keys[None, :] >= m[:batch, None])[:, None, :]
        if m.shape == (2 * batch,):
            hidden |= (keys[None, :] < m[batch:, None])[:, None, :]
    elif m.shape == (batch, total):
        hidden |= (m == 0)[:, None, :]
    elif m.shape == (batch, seq, total):
        hidden |= m == 0
    else:
        raise ValueError(f"{OP}: mask_index must be [B], [2B], [B, P+S] or [B, S, P+S] for B={batch}, S={seq}, "
                         f"P+S={total}, got {m.shape}")
    return hidden


def causal_mask(seq: int, total: int) -> np.ndarray:
    """[S, T] booleans: True for the keys after query i's own position P + i."""
    return np.asarray(np.arange(total)[None, :] > total - seq + np.arange(seq)[:, None])


def attend(q: np.ndarray, k: np.ndarray, v: np.ndarray, padded: np.ndarray, causal: np.ndarray | None,
           scale: float, filter_value: float) -> np.ndarray:
    """softmax(scale * q @ k^T, plus filter_value where padded, keys excluded where causal) @ v, over heads
    [B, N, S, H] (keys [B, N, T, H])."""
    scores = np.float32(scale) * np.matmul(q, k.transpose(0, 1, 3, 2))
    scores = scores + np.where(padded[:, None], np.float32(filter_value), np.float32(0))
    if causal is not None:
        scores = np.where(causal[None, None], np.float32(-np.inf), scores)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return np.asarray(np.matmul(e / e.sum(axis=-1, keepdims=True), v), np.float32)


@kernel("com.microsoft", "QAttention", since=1)
def q_attention(input: np.ndarray, weight: np.ndarray, bias: np.ndarray, input_scale: np.ndarray,
                weight_scale: np.ndarray, mask_index: np.ndarray | None, input_zero_point: np.ndarray | None,
                weight_zero_point: np.ndarray | None, past: np.ndarray | None, *, do_rotary: int,
                mask_filter_value: float, num_heads: int, past_present_share_buffer: int, scale: float | None,
                unidirectional: int) -> tuple[np.ndarray, ...]:
    # do_rotary has nothing to rotate with (qattention_r1): no rotation, as onnxruntime's CPU kernel
    if past_present_share_buffer and past is not None:
        raise ValueError(f"{OP}: past_present_share_buffer with past needs a cache length QAttention has no input for")
    if input.ndim != 3 or weight.ndim != 2 or weight.shape[0] != input.shape[2] or weight.shape[1] % 3:
        raise ValueError(f"{OP}: input must be [B, S, D] and weight [D, 3 * hidden], got {input.shape}, "
                         f"{weight.shape}")
    batch, seq, _ = input.shape
    hidden3 = weight.shape[1]
    hidden = hidden3 // 3
    if num_heads < 1 or hidden % num_heads:
        raise ValueError(f"{OP}: num_heads {num_heads} must divide hidden_size {hidden}")
    if bias.shape != (hidden3,):
        raise ValueError(f"{OP}: bias must be [3 * hidden_size] = [{hidden3}], got {bias.shape}")
    head = hidden // num_heads
    x = input.astype(np.int64)
    if input_zero_point is not None:
        x = x - per_tensor(OP, "input_zero_point", input_zero_point).astype(np.int64)
    w = weight.astype(np.int64)
    if weight_zero_point is not None:
        w = w - _per_column(weight_zero_point, hidden3, "weight_zero_point").astype(np.int64)
    acc = np.matmul(x, w).astype(np.int32)
    multiplier = np.float32(per_tensor(OP, "input_scale", input_scale).astype(np.float32)) * \
        _per_column(weight_scale, hidden3, "weight_scale").astype(np.float32)
    qkv = acc.astype(np.float32) * multiplier + bias.astype(np.float32)
    heads = qkv.reshape(batch, seq, 3, num_heads, head).transpose(2, 0, 3, 1, 4)  # 3, B, N, S, H
    q, k, v = heads[0], heads[1], heads[2]
    if past is not None:
        if past.ndim != 5 or past.shape[:3] != (2, batch, num_heads) or past.shape[4] != head:
            raise ValueError(f"{OP}: past must be [2, {batch}, {num_heads}, P, {head}], got {past.shape}")
        k = np.concatenate([past[0].astype(np.float32), k], axis=2)
        v = np.concatenate([past[1].astype(np.float32), v], axis=2)
    total = k.shape[2]
    padded = padding_mask(mask_index, batch, seq, total)
    causal = causal_mask(seq, total) if unidirectional else None
    s = float(scale) if scale is not None and scale != 0 else 1.0 / float(np.sqrt(np.float32(head)))
    out = attend(q, k, v, padded, causal, s, mask_filter_value)
    y = out.transpose(0, 2, 1, 3).reshape(batch, seq, hidden).astype(bias.dtype)
    present = np.stack([k, v]).astype(bias.dtype)
    return y, present


def _per_column(value: np.ndarray, n: int, name: str) -> np.ndarray:
    if value.size == 1 and value.ndim <= 1:
        return value.reshape(())
    if value.shape == (n,):
        return value
    raise ValueError(f"{OP}: {name} must be one element or [3 * hidden_size] = [{n}], got {value.shape}")
