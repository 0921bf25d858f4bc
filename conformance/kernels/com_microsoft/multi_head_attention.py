"""com.microsoft MultiHeadAttention: self or cross attention over projected Q, K and V, as onnxruntime's CPU kernel
computes it.

query is (batch, sequence, hidden); key and value are (batch, kv_sequence, hidden) and (batch, kv_sequence,
v_hidden), split into num_heads heads, or already in heads (batch, heads, kv_sequence, head_size) (a cross-attention
cache reused as it is). bias (hidden + hidden + v_hidden) is added to Q, and to K and V when they are not in
heads yet. With past_key / past_value
(batch, heads, past, head_size) the new keys and values follow the past ones; with past_sequence_length the past
tensors are buffers of max_sequence positions holding that many valid ones, the new keys and values are written
after them and the presents are the whole buffers. Scores are scale * Q K^T (1 / sqrt(head_size) when scale is
absent or 0) plus attention_bias plus the additive mask of key_padding_mask and unidirectional
(`_attention.key_mask`; of a (3 * batch + 2) mask the CPU kernel reads the first batch values as end
positions); softmax over the keys; output = weights V, heads merged. qk is the scaled scores with
bias and mask, before the softmax.
"""

from __future__ import annotations

import math

import numpy as np

from conformance.kernels.com_microsoft._attention import (
    check_bias,
    key_mask,
    merge_heads,
    scores,
    softmax,
    split_heads,
)
from conformance.kernels.registry import kernel

OP = "MultiHeadAttention"


@kernel("com.microsoft", OP, since=1)
def multi_head_attention(query: np.ndarray, key: np.ndarray | None, value: np.ndarray | None,
                         bias: np.ndarray | None, key_padding_mask: np.ndarray | None,
                         attention_bias: np.ndarray | None, past_key: np.ndarray | None,
                         past_value: np.ndarray | None, past_sequence_length: np.ndarray | None,
                         cache_indirection: np.ndarray | None, *, mask_filter_value: float, num_heads: int,
                         scale: float | None, unidirectional: int) -> tuple[np.ndarray, ...]:
    if query.ndim != 3 or key is None or value is None or key.ndim not in (3, 4) or value.ndim != key.ndim:
        raise ValueError(f"{OP}: query must be (batch, sequence, hidden) with 3-D or 4-D key and value (packed QKV "
                         f"and packed KV have no reference: onnxruntime's CPU kernel rejects them), got "
                         f"{query.shape}, {None if key is None else key.shape}, "
                         f"{None if value is None else value.shape}")
    batch, seq, hidden = query.shape
    if hidden % num_heads:
        raise ValueError(f"{OP}: hidden size {hidden} must be a multiple of num_heads {num_heads}")
    head_size = hidden // num_heads
    if key.ndim == 3:
        if key.shape[0] != batch or key.shape[2] != hidden or value.shape[:2] != key.shape[:2] \
                or value.shape[2] % num_heads:
            raise ValueError(f"{OP}: key must be (batch, kv_sequence, {hidden}) and value (batch, kv_sequence, "
                             f"multiple of num_heads), got {key.shape} and {value.shape}")
        v_hidden = value.shape[2]
    else:
        if key.shape[:2] != (batch, num_heads) or key.shape[3] != head_size or value.shape != key.shape:
            raise ValueError(f"{OP}: 4-D key and value must be (batch, num_heads, kv_sequence, head_size), got "
                             f"{key.shape} and {value.shape}")
        if past_key is not None or past_value is not None:
            raise ValueError(f"{OP}: key and value in heads take no past_key / past_value")
        v_hidden = value.shape[1] * value.shape[3]
    if bias is not None and bias.shape != (2 * hidden + v_hidden,):
        raise ValueError(f"{OP}: bias must be ({2 * hidden + v_hidden},), got {bias.shape}")
    bq: np.ndarray | float = 0.0
    bk: np.ndarray | float = 0.0
    bv: np.ndarray | float = 0.0
    if bias is not None:
        b64 = bias.astype(np.float64)
        bq, bk, bv = b64[:hidden], b64[hidden:2 * hidden], b64[2 * hidden:]
    q = split_heads(query.astype(np.float64) + bq, num_heads)
    if key.ndim == 3:
        k = split_heads(key.astype(np.float64) + bk, num_heads)
        v = split_heads(value.astype(np.float64) + bv, num_heads)
    else:
        k, v = key.astype(np.float64), value.astype(np.float64)  # onnxruntime adds no bias to keys in heads
    kv_seq = k.shape[2]
    past_len = 0
    if (past_key is None) != (past_value is None):
        raise ValueError(f"{OP}: past_key and past_value come together")
    if past_key is not None and past_value is not None:
        if past_key.shape[:2] != (batch, num_heads) or past_key.shape[3] != head_size \
                or past_value.shape != (*past_key.shape[:3], v.shape[3]):
            raise ValueError(f"{OP}: past_key and past_value must be (batch, num_heads, past, head_size), got "
                             f"{past_key.shape} and {past_value.shape}")
        pk, pv = past_key.astype(np.float64), past_value.astype(np.float64)
        if past_sequence_length is not None:
            past_len = int(past_sequence_length.reshape(-1)[0])
            if not 0 <= past_len <= past_key.shape[2] - kv_seq:
                raise ValueError(f"{OP}: past_sequence_length {past_len} + kv_sequence {kv_seq} exceeds the buffer "
                                 f"{past_key.shape[2]}")
            present_key, present_value = pk.copy(), pv.copy()
            present_key[:, :, past_len:past_len + kv_seq] = k
            present_value[:, :, past_len:past_len + kv_seq] = v
            k, v = present_key[:, :, :past_len + kv_seq], present_value[:, :, :past_len + kv_seq]
        else:
            past_len = past_key.shape[2]
            k, v = np.concatenate([pk, k], axis=2), np.concatenate([pv, v], axis=2)
            present_key, present_value = k, v
    else:
        present_key, present_value = k, v
    total = k.shape[2]
    if key_padding_mask is not None and key_padding_mask.ndim == 1 and key_padding_mask.shape[0] == 2 * batch \
            and batch > 0:
        raise ValueError(f"{OP}: a key_padding_mask of (2 * batch) is not one of its layouts")
    mask = key_mask(OP, key_padding_mask, batch, seq, total, past_len, bool(unidirectional) and seq > 1,
                    mask_filter_value, ends_of_3b2=True)
    factor = scale if scale else 1.0 / math.sqrt(head_size)
    s = scores(q, k, factor)
    if attention_bias is not None:
        check_bias(OP, attention_bias, batch, num_heads, seq, total)
        s = s + attention_bias.astype(np.float64)
    if mask is not None:
        s = s + mask[:, None]
    out = merge_heads(softmax(s) @ v)
    dt = query.dtype
    return out.astype(dt), present_key.astype(dt), present_value.astype(dt), s.astype(dt)
