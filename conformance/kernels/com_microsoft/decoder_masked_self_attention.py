"""com.microsoft DecoderMaskedSelfAttention: one decoding step (sequence length 1) of Attention with the Q/K/V
projection, into a shared past/present buffer whose key half is in onnxruntime's reordered layout.

Q, K, V = input @ weights + bias (three equal parts), in num_heads heads. past is (2, batch, heads, max_sequence,
head_size) holding past_sequence_length valid positions; its key half is stored reordered: the (batch, heads,
max_sequence, head_size / x, x) view of the keys is kept as (batch, heads, head_size / x, max_sequence, x), with
x = 16 / sizeof(T) (4 for float, 8 for float16). The new key and value are written at row past_sequence_length,
present is the whole buffer (keys reordered again), and the query attends to the rows up to it: scores are scale *
Q K^T (1 / sqrt(head_size) when scale is absent or 0) plus attention_bias, plus mask_filter_value where the
(batch, total_sequence) mask_index is 0; softmax; output = weights V, heads merged. With beam_width > 1 the past rows
of each beam are read through cache_indirection as in DecoderMaskedMultiHeadAttention, whose kernel this one calls.
do_rotary is not covered (onnxruntime's CUDA-only kernel fixes a rotary layout this reference does not claim).
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft.decoder_masked_multi_head_attention import (
    decoder_masked_multi_head_attention as dmmha,
)
from conformance.kernels.registry import kernel

OP = "DecoderMaskedSelfAttention"


def chunk(dtype: np.dtype) -> int:
    """x = 16 / sizeof(T): the key elements kept together in the reordered layout."""
    return 16 // np.dtype(dtype).itemsize


def keys_plain(keys: np.ndarray, x: int) -> np.ndarray:
    """(batch, heads, max_sequence, head_size) from the reordered key buffer of that shape."""
    b, n, m, h = keys.shape
    out: np.ndarray = keys.reshape(b, n, h // x, m, x).transpose(0, 1, 3, 2, 4).reshape(b, n, m, h)
    return out


def keys_reordered(keys: np.ndarray, x: int) -> np.ndarray:
    b, n, m, h = keys.shape
    out: np.ndarray = keys.reshape(b, n, m, h // x, x).transpose(0, 1, 3, 2, 4).reshape(b, n, m, h)
    return out


@kernel("com.microsoft", OP, since=1)
def decoder_masked_self_attention(
        input: np.ndarray, weights: np.ndarray, bias: np.ndarray, mask_index: np.ndarray | None, past: np.ndarray,
        attention_bias: np.ndarray | None, past_sequence_length: np.ndarray, beam_width: np.ndarray | None,
        cache_indirection: np.ndarray | None, *, do_rotary: int | None, mask_filter_value: float, num_heads: int,
        past_present_share_buffer: int | None, scale: float | None) -> tuple[np.ndarray, ...]:
    if do_rotary:
        raise ValueError(f"{OP}: do_rotary is not covered by the reference")
    if not past_present_share_buffer:
        raise ValueError(f"{OP}: onnxruntime's kernel takes the past as a shared buffer (past_present_share_buffer 1)")
    if input.ndim != 3 or input.shape[1] != 1 or weights.ndim != 2 or weights.shape[0] != input.shape[2] \
            or weights.shape[1] % 3 or bias.shape != (weights.shape[1],):
        raise ValueError(f"{OP}: input (batch, 1, input_hidden), weights (input_hidden, 3 * hidden) and bias "
                         f"(3 * hidden) expected, got {input.shape}, {weights.shape} and {bias.shape}")
    hidden = weights.shape[1] // 3
    x = chunk(input.dtype)
    if hidden % num_heads or (hidden // num_heads) % x or past.ndim != 5 or past.shape[0] != 2:
        raise ValueError(f"{OP}: head_size must be a multiple of {x} (16 bytes) and past (2, batch, heads, "
                         f"max_sequence, head_size), got hidden {hidden}, num_heads {num_heads}, past {past.shape}")
    qkv = input.astype(np.float64) @ weights.astype(np.float64)  # bias is added by the attention kernel
    q, k, v = (qkv[..., i * hidden:(i + 1) * hidden].astype(input.dtype) for i in range(3))
    past_key = keys_plain(past[0], x)
    output, present_key, present_value, _ = dmmha(
        q, k, v, mask_index, attention_bias, past_key, past[1], past_sequence_length, beam_width, cache_indirection,
        bias, mask_filter_value=mask_filter_value, num_heads=num_heads, output_qk=0, past_present_share_buffer=1,
        scale=scale)
    present = np.stack([keys_reordered(present_key, x), present_value]).astype(input.dtype)
    return output, present
