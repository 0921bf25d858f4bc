"""com.microsoft Attention: multi-head attention with the Q, K and V projections fused in, as onnxruntime's CPU
kernel computes it.

Q, K, V = input @ weights (+ bias), split by qkv_hidden_sizes (or in three equal parts) and into num_heads heads;
a past state (2, batch, heads, past, head_size) is put before K and V, and present is the stack of the full K and
V. Scores are scale * Q K^T (scale 1 / sqrt(head_size) when absent or 0), plus attention_bias, plus the additive
mask that mask_index and unidirectional give (masked keys get mask_filter_value, `_attention.key_mask`); softmax
over the keys; output = weights V, heads merged.

With past_present_share_buffer the past is a buffer (2, batch, heads, max_sequence, head_size) holding
past_sequence_length valid positions; the new keys and values are written after them, attention reads the
past_sequence_length + sequence_length first positions, and present is the whole buffer.
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

OP = "Attention"


@kernel("com.microsoft", OP, since=1, requested_outputs=True)
def attention(x: np.ndarray, weights: np.ndarray, bias: np.ndarray | None, mask_index: np.ndarray | None,
              past: np.ndarray | None, attention_bias: np.ndarray | None, past_sequence_length: np.ndarray | None,
              *, do_rotary: int, mask_filter_value: float, num_heads: int, past_present_share_buffer: int,
              qkv_hidden_sizes: list[int] | None, rotary_embedding_dim: int | None, scale: float | None,
              unidirectional: int, requested_outputs: int) -> tuple[np.ndarray, ...]:
    if do_rotary:
        raise ValueError(f"{OP}: do_rotary has no reference (onnxruntime's CPU kernel rejects it; its CUDA kernel "
                         "alone rotates)")
    if x.ndim != 3 or weights.ndim != 2 or weights.shape[0] != x.shape[2]:
        raise ValueError(f"{OP}: input must be (batch, sequence, input_hidden) and weights (input_hidden, ...), got "
                         f"{x.shape} and {weights.shape}")
    sizes = list(qkv_hidden_sizes) if qkv_hidden_sizes else [weights.shape[1] // 3] * 3
    if len(sizes) != 3 or sum(sizes) != weights.shape[1] or sizes[0] != sizes[1] \
            or any(s <= 0 or s % num_heads for s in sizes):
        raise ValueError(f"{OP}: Q, K, V hidden sizes {sizes} must be positive multiples of num_heads {num_heads}, "
                         f"Q's equal to K's, summing to the weights' second dim {weights.shape[1]}")
    if bias is not None and bias.shape != (weights.shape[1],):
        raise ValueError(f"{OP}: bias must be ({weights.shape[1]},), got {bias.shape}")
    batch, seq = x.shape[:2]
    proj = x.astype(np.float64) @ weights.astype(np.float64)
    if bias is not None:
        proj = proj + bias.astype(np.float64)
    dq, dk = sizes[0], sizes[1]
    q = split_heads(proj[..., :dq], num_heads)
    k = split_heads(proj[..., dq:dq + dk], num_heads)
    v = split_heads(proj[..., dq + dk:], num_heads)
    head_size = dq // num_heads
    past_len = 0
    if past is not None:
        if sizes[1] != sizes[2] or past.ndim != 5 or past.shape[:3] != (2, batch, num_heads) \
                or past.shape[4] != head_size:
            raise ValueError(f"{OP}: past must be (2, {batch}, {num_heads}, past, {head_size}) with equal K and V "
                             f"hidden sizes, got {past.shape}")
        pf = past.astype(np.float64)
        if past_present_share_buffer:
            if past_sequence_length is None or past_sequence_length.size != 1:
                raise ValueError(f"{OP}: a shared past/present buffer needs a one-element past_sequence_length")
            past_len = int(past_sequence_length.reshape(-1)[0])
            if not 0 <= past_len <= past.shape[3] - seq:
                raise ValueError(f"{OP}: past_sequence_length {past_len} + sequence {seq} exceeds the buffer "
                                 f"{past.shape[3]}")
            buf = pf.copy()
            buf[0, :, :, past_len:past_len + seq] = k
            buf[1, :, :, past_len:past_len + seq] = v
            present = buf
            k, v = buf[0, :, :, :past_len + seq], buf[1, :, :, :past_len + seq]
        else:
            past_len = past.shape[3]
            k = np.concatenate([pf[0], k], axis=2)
            v = np.concatenate([pf[1], v], axis=2)
            present = np.stack([k, v])
    else:
        present = None
    total = k.shape[2]
    if mask_index is not None and mask_index.ndim == 4:
        raise ValueError(f"{OP}: a 4-D (Megatron) mask has no reference (onnxruntime's CPU kernel rejects it)")
    mask = key_mask(OP, mask_index, batch, seq, total, past_len, bool(unidirectional) and seq > 1, mask_filter_value,
                    ends_of_3b2=True)
    factor = scale if scale else 1.0 / math.sqrt(head_size)
    s = scores(q, k, factor)
    if attention_bias is not None:
        check_bias(OP, attention_bias, batch, num_heads, seq, total)
        s = s + attention_bias.astype(np.float64)
    if mask is not None:
        s = s + mask[:, None]
    out = merge_heads(softmax(s) @ v).astype(x.dtype)
    if requested_outputs < 2:
        return (out,)
    if present is None:
        if sizes[1] != sizes[2]:
            raise ValueError(f"{OP}: present needs equal K and V hidden sizes, got {sizes}")
        present = np.stack([k, v])
    return out, present.astype(x.dtype)
