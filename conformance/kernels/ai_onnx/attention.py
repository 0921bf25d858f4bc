"""Attention (23, 24, 25): scaled dot-product attention with grouped heads, a KV cache, masks and windows.

Per query head h (key/value head h // (q_heads / kv_heads)): scores = scale * Q K^T over the past and
current keys; softcap c > 0 maps s to c * tanh(s / c); the bias adds a float mask, or -inf where a boolean
mask, the causal frontier (key j <= query i + offset), the padding past nonpad_kv_seqlen (24) or the
sliding window (25) disallows a key; softmax over the keys, a row with no allowed key giving zeros; Y =
weights V. The optional outputs are the caches (past ++ current keys and values) and the QK matrix at the
stage qk_matmul_output_mode names (0 raw, 1 after softcap, 2 with the bias, 3 the softmax weights).
Everything is computed in double and rounded once to the output type, so softmax_precision (at least the
precision it asks for) changes nothing here.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


def _heads(x: np.ndarray, heads: int | None) -> np.ndarray:
    """(batch, heads, sequence, size) from a 4-D tensor as it is, or from (batch, sequence, heads * size)."""
    if x.ndim == 4:
        return x
    if not heads:
        raise ValueError("Attention: 3-D inputs need q_num_heads and kv_num_heads")
    b, s, hidden = x.shape
    return x.reshape(b, s, heads, hidden // heads).transpose(0, 2, 1, 3)


def _attention(q: np.ndarray, k: np.ndarray, v: np.ndarray, mask: np.ndarray | None, past_key: np.ndarray | None,
               past_value: np.ndarray | None, nonpad: np.ndarray | None, *, is_causal: int,
               q_num_heads: int | None, kv_num_heads: int | None, mode: int, scale: float | None, softcap: float,
               pad_short_mask: bool, left: int = -1, right: int = -1) -> tuple[np.ndarray, ...]:
    qh, kh, vh = _heads(q, q_num_heads), _heads(k, kv_num_heads), _heads(v, kv_num_heads)
    if past_key is not None and past_value is not None:
        kh, vh = np.concatenate([past_key, kh], axis=2), np.concatenate([past_value, vh], axis=2)
    present_key, present_value = kh, vh
    batch, hq, sq, d = qh.shape
    hkv, total = kh.shape[1], kh.shape[2]
    if hq % hkv:
        raise ValueError(f"Attention: {hq} query heads do not group over {hkv} key/value heads")
    group = hq // hkv
    k64 = np.repeat(kh.astype(np.float64), group, axis=1)
    v64 = np.repeat(vh.astype(np.float64), group, axis=1)
    factor = scale if scale is not None else 1.0 / np.sqrt(d)
    raw = factor * (qh.astype(np.float64) @ np.swapaxes(k64, -1, -2))  # (batch, hq, sq, total)
    capped = softcap * np.tanh(raw / softcap) if softcap > 0 else raw
    allowed = np.ones((batch, 1, sq, total), dtype=bool)
    bias = np.zeros((batch, 1, sq, total))
    if mask is not None:
        if pad_short_mask and mask.shape[-1] < total:  # 24+: a short mask is padded with masked positions
            width = [(0, 0)] * (mask.ndim - 1) + [(0, total - mask.shape[-1])]
            mask = np.pad(mask, width, constant_values=False if mask.dtype == np.bool_ else -np.inf)
        if mask.dtype == np.bool_:
            allowed = allowed & mask
        else:
            bias = bias + mask.astype(np.float64)
    past = 0 if past_key is None else past_key.shape[2]
    offsets = np.full((batch, 1, 1, 1), past)
    keys = np.arange(total)[None, None, None, :]
    if nonpad is not None:
        lengths = nonpad.astype(np.int64).reshape(batch, 1, 1, 1)
        allowed = allowed & (keys < lengths)
        offsets = lengths - sq
    position = offsets + np.arange(sq)[None, None, :, None]  # absolute position of each query
    if is_causal:
        allowed = allowed & (keys <= position)
    if left >= 0:
        allowed = allowed & (keys >= position - left)
    if right >= 0:
        allowed = allowed & (keys <= position + right)
    biased = np.where(allowed, capped + bias, -np.inf)
    top = np.max(biased, axis=-1, keepdims=True)
    live = np.isfinite(top)  # a row with every key disallowed gives zeros, not NaN
    with np.errstate(invalid="ignore", over="ignore"):
        weights = np.exp(biased - np.where(live, top, 0.0))
        weights = np.where(live, weights / weights.sum(axis=-1, keepdims=True), 0.0)
    y = weights @ v64  # (batch, hq, sq, dv)
    if q.ndim == 3:
        y = y.transpose(0, 2, 1, 3).reshape(batch, sq, -1)
    qk = (raw, capped, np.broadcast_to(capped + np.where(allowed, bias, -np.inf), raw.shape), weights)[mode]
    dtype = q.dtype
    return (y.astype(dtype), present_key.astype(dtype, copy=False), present_value.astype(v.dtype, copy=False),
            np.asarray(qk).astype(dtype))


@kernel("ai.onnx", "Attention", since=23, until=23)
def attention_v23(q: np.ndarray, k: np.ndarray, v: np.ndarray, attn_mask: np.ndarray | None,
                  past_key: np.ndarray | None, past_value: np.ndarray | None, *, is_causal: int,
                  kv_num_heads: int | None, q_num_heads: int | None, qk_matmul_output_mode: int,
                  scale: float | None, softcap: float, softmax_precision: int | None) -> tuple[np.ndarray, ...]:
    return _attention(q, k, v, attn_mask, past_key, past_value, None, is_causal=is_causal, q_num_heads=q_num_heads,
                      kv_num_heads=kv_num_heads, mode=qk_matmul_output_mode, scale=scale, softcap=softcap,
                      pad_short_mask=False)


@kernel("ai.onnx", "Attention", since=24, until=24)
def attention_v24(q: np.ndarray, k: np.ndarray, v: np.ndarray, attn_mask: np.ndarray | None,
                  past_key: np.ndarray | None, past_value: np.ndarray | None, nonpad_kv_seqlen: np.ndarray | None, *,
                  is_causal: int, kv_num_heads: int | None, q_num_heads: int | None, qk_matmul_output_mode: int,
                  scale: float | None, softcap: float, softmax_precision: int | None) -> tuple[np.ndarray, ...]:
    return _attention(q, k, v, attn_mask, past_key, past_value, nonpad_kv_seqlen, is_causal=is_causal,
                      q_num_heads=q_num_heads, kv_num_heads=kv_num_heads, mode=qk_matmul_output_mode, scale=scale,
                      softcap=softcap, pad_short_mask=True)


@kernel("ai.onnx", "Attention", since=25)
def attention(q: np.ndarray, k: np.ndarray, v: np.ndarray, attn_mask: np.ndarray | None,
              past_key: np.ndarray | None, past_value: np.ndarray | None, nonpad_kv_seqlen: np.ndarray | None, *,
              is_causal: int, kv_num_heads: int | None, q_num_heads: int | None, qk_matmul_output_mode: int,
              scale: float | None, softcap: float, softmax_precision: int | None, left_window_size: int,
              right_window_size: int) -> tuple[np.ndarray, ...]:
    return _attention(q, k, v, attn_mask, past_key, past_value, nonpad_kv_seqlen, is_causal=is_causal,
                      q_num_heads=q_num_heads, kv_num_heads=kv_num_heads, mode=qk_matmul_output_mode, scale=scale,
                      softcap=softcap, pad_short_mask=True, left=left_window_size, right=right_window_size)
