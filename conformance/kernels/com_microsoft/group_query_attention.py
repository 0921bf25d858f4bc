"""com.microsoft GroupQueryAttention: causal (or bidirectional) attention with fewer key/value heads than query heads
and a KV cache addressed by per-entry lengths, as onnxruntime's CPU kernel computes it.

Q (batch, sequence, num_heads * head_size), K and V (batch, sequence, kv_num_heads * head_size), or all three packed
in query. Query head h reads key/value head h // (num_heads / kv_num_heads) (consecutive query heads share one).
Entry b holds total_b = seqlens_k[b] + 1 tokens after the step. On the first prompt (sequence_length ==
total_sequence_length) nothing was cached (past_b = 0); otherwise past_b = total_b - sequence_length tokens come
from past_key / past_value. present holds past_b cached rows then the sequence_length new ones, in a buffer of
max(past buffer, total_sequence_length) rows; rows after those are unspecified (zeros here).

With do_rotary, Q and K are rotated (cos_cache / sin_cache rows at each token's position: position_ids when
given (on the first prompt only its first value, counting up from it), else past_b + s) before K is cached.
Query row s (absolute position past_b + s) sees keys [0, past_b + s]
(with causal=0: every key [0, total_b)), the last local_window_size of them when local_window_size > 0.
Scores are scale * Q K^T (1 / sqrt(head_size) when scale is absent or 0), soft-capped (softcap * tanh(x / softcap))
when softcap > 0, plus attention_bias (columns are absolute key positions); softmax over the visible keys, with a
sink logit in the denominator (head_sink[h], or 0 with smooth_softmax=1); output = weights V. output_qk is the
scores before the softmax (qk_output=1, with softcap and bias) or the weights (qk_output=2), (batch, num_heads,
sequence, total_sequence_length), zero at keys a query does not see.
"""

from __future__ import annotations

import math

import numpy as np

from conformance.kernels.com_microsoft._attention import merge_heads, rotate, split_heads
from conformance.kernels.registry import kernel

OP = "GroupQueryAttention"


def _check(cond: bool, message: str) -> None:
    if not cond:
        raise ValueError(f"{OP}: {message}")


@kernel("com.microsoft", OP, since=1, requested_outputs=True)
def group_query_attention(
        query: np.ndarray, key: np.ndarray | None, value: np.ndarray | None, past_key: np.ndarray | None,
        past_value: np.ndarray | None, seqlens_k: np.ndarray, total_sequence_length: np.ndarray,
        cos_cache: np.ndarray | None, sin_cache: np.ndarray | None, position_ids: np.ndarray | None,
        attention_bias: np.ndarray | None, head_sink: np.ndarray | None, k_scale: np.ndarray | None,
        v_scale: np.ndarray | None, q_norm_weight: np.ndarray | None, k_norm_weight: np.ndarray | None,
        query_seqlens: np.ndarray | None, *, causal: int, do_rotary: int, k_norm_epsilon: float | None,
        k_quant_type: str, kv_cache_bit_width: int | None, kv_num_heads: int, local_window_size: int,
        num_heads: int, q_norm_epsilon: float | None, qk_norm_epsilon: float, qk_output: int,
        rotary_interleaved: int, scale: float | None, sliding_window_cache: int, smooth_softmax: int,
        softcap: float | None, v_quant_type: str, requested_outputs: int) -> tuple[np.ndarray, ...]:
    _check(k_scale is None and v_scale is None and k_quant_type == "NONE" and v_quant_type == "NONE"
           and kv_cache_bit_width is None, "a quantized KV cache has no reference (onnxruntime's CPU kernel has none)")
    _check(q_norm_weight is None and k_norm_weight is None,
           "q_norm_weight / k_norm_weight have no reference (onnxruntime's CPU kernel rejects them)")
    _check(query_seqlens is None and not sliding_window_cache,
           "query_seqlens and sliding_window_cache have no reference here")
    _check(query.ndim == 3, f"query must be (batch, sequence, hidden), got {query.shape}")
    _check(num_heads > 0 and kv_num_heads > 0 and num_heads % kv_num_heads == 0,
           f"num_heads {num_heads} must be a positive multiple of kv_num_heads {kv_num_heads}")
    batch, seq, width = query.shape
    if key is None:
        _check(value is None and width % (num_heads + 2 * kv_num_heads) == 0,
               f"packed QKV width {width} must be a multiple of num_heads + 2 * kv_num_heads")
        head_size = width // (num_heads + 2 * kv_num_heads)
        qd, kd = num_heads * head_size, kv_num_heads * head_size
        q_in, k_in, v_in = query[..., :qd], query[..., qd:qd + kd], query[..., qd + kd:]
    else:
        _check(value is not None and width % num_heads == 0, "key and value come together; hidden % num_heads == 0")
        head_size = width // num_heads
        _check(key.shape == (batch, seq, kv_num_heads * head_size) and value is not None and value.shape == key.shape,
               f"key and value must be (batch, sequence, {kv_num_heads * head_size}), got {key.shape}")
        if value is None:
            raise ValueError(f"{OP}: key and value come together")
        q_in, k_in, v_in = query, key, value
    q = split_heads(q_in, num_heads)
    k = split_heads(k_in, kv_num_heads)
    v = split_heads(v_in, kv_num_heads)
    _check(seqlens_k.shape == (batch,) and total_sequence_length.size == 1,
           f"seqlens_k must be ({batch},) and total_sequence_length one value")
    total_max = int(total_sequence_length.reshape(-1)[0])
    totals = seqlens_k.astype(np.int64) + 1
    first_prompt = seq == total_max
    pasts = np.zeros(batch, dtype=np.int64) if first_prompt else totals - seq
    past_buf = 0
    if past_key is not None or past_value is not None:
        _check(past_key is not None and past_value is not None and past_key.shape == past_value.shape
               and past_key.ndim == 4 and past_key.shape[:2] == (batch, kv_num_heads)
               and past_key.shape[3] == head_size, "past_key and past_value must be (batch, kv_num_heads, past, "
               f"head_size), got {None if past_key is None else past_key.shape}")
        assert past_key is not None
        past_buf = past_key.shape[2]
    _check(bool(np.all(totals >= 1)) and bool(np.all(totals <= total_max)) and bool(np.all(pasts >= 0))
           and bool(np.all(pasts <= past_buf)) and (first_prompt or bool(np.all(pasts + seq == totals))),
           f"seqlens_k {seqlens_k.tolist()} do not fit sequence {seq}, total {total_max} and past {past_buf}")
    _check(not local_window_size > 0 or causal == 1, "local_window_size needs causal attention")
    present_len = max(past_buf, total_max)
    if position_ids is None:
        positions = pasts[:, None] + np.arange(seq)[None, :]
    elif first_prompt:  # onnxruntime reads only the first position id on the first prompt
        positions = np.broadcast_to(int(position_ids.reshape(-1)[0]) + np.arange(seq)[None, :], (batch, seq))
    else:
        _check(position_ids.shape == (batch, seq), f"position_ids must be ({batch}, {seq}), got {position_ids.shape}")
        positions = position_ids.astype(np.int64)
    if do_rotary:
        _check(cos_cache is not None and sin_cache is not None and cos_cache.shape == sin_cache.shape
               and cos_cache.ndim == 2 and 2 * cos_cache.shape[1] <= head_size,
               "do_rotary needs cos_cache and sin_cache of (max_sequence, rotary_dim / 2)")
        assert cos_cache is not None and sin_cache is not None
        _check(bool(np.all(positions < cos_cache.shape[0])), "a position lies past the rotary caches")
        cos = cos_cache.astype(np.float64)[positions][:, None]  # (batch, 1, seq, half)
        sin = sin_cache.astype(np.float64)[positions][:, None]
        q = rotate(q, cos, sin, bool(rotary_interleaved))
        k = rotate(k, cos, sin, bool(rotary_interleaved))
    present_k = np.zeros((batch, kv_num_heads, present_len, head_size))
    present_v = np.zeros_like(present_k)
    for b in range(batch):
        p = int(pasts[b])
        if p:
            assert past_key is not None and past_value is not None
            present_k[b, :, :p] = past_key[b, :, :p]
            present_v[b, :, :p] = past_value[b, :, :p]
        present_k[b, :, p:p + seq] = k[b]
        present_v[b, :, p:p + seq] = v[b]
    group = num_heads // kv_num_heads
    keys = np.repeat(present_k[:, :, :total_max], group, axis=1)  # (batch, num_heads, total, head)
    vals = np.repeat(present_v[:, :, :total_max], group, axis=1)
    factor = scale if scale else 1.0 / math.sqrt(head_size)
    s = factor * (q @ np.swapaxes(keys, -1, -2))  # (batch, num_heads, seq, total)
    if softcap and softcap > 0:
        s = softcap * np.tanh(s / softcap)
    if attention_bias is not None:
        _check(attention_bias.ndim == 4 and attention_bias.shape[0] in (1, batch)
               and attention_bias.shape[1] in (1, num_heads) and attention_bias.shape[2:] == (seq, total_max),
               f"attention_bias must be (batch or 1, num_heads or 1, {seq}, {total_max}), got {attention_bias.shape}")
        s = s + attention_bias.astype(np.float64)
    col = np.arange(total_max)[None, None, :]
    pos = pasts[:, None, None] + np.arange(seq)[None, :, None]  # (batch, seq, 1)
    visible = col < (pos + 1 if causal else totals[:, None, None])
    if local_window_size > 0:
        visible = visible & (col > pos - local_window_size)
    visible = visible[:, None]  # (batch, 1, seq, total)
    sink = None if head_sink is None and smooth_softmax != 1 else \
        (np.zeros(num_heads) if head_sink is None else head_sink.astype(np.float64).reshape(num_heads))
    masked = np.where(visible, s.astype(np.float32).astype(np.float64), -np.inf)
    top = masked.max(axis=-1, keepdims=True)
    if sink is not None:
        top = np.maximum(top, sink[None, :, None, None])
    e = np.where(visible, np.exp(masked - top), 0.0)
    denom = e.sum(axis=-1, keepdims=True)
    if sink is not None:
        denom = denom + np.exp(sink[None, :, None, None] - top)
    weights = e / denom
    out = merge_heads(weights @ vals).astype(query.dtype)
    result: list[np.ndarray] = [out]
    if requested_outputs > 1:
        result += [present_k.astype(query.dtype), present_v.astype(query.dtype)]
    if requested_outputs > 3:
        qk = np.where(visible, s, 0.0) if qk_output != 2 else weights
        result.append(qk.astype(query.dtype))
    return tuple(result)
