"""com.microsoft PackedAttention: Attention (the Q/K/V projection fused in) over the packed tokens of right-padded
sequences, as onnxruntime's CUDA kernel defines it.

Q, K, V = input @ weights + bias, split by qkv_hidden_sizes (or in three equal parts) and into num_heads heads; token
i sits at padded position token_offset[i] (RemovePadding's layout) and sees the tokens of its own sequence
(cumulative_sequence_length gives each sequence's length); scores are scale * Q K^T (1 / sqrt(head_size) when scale
is absent or 0) plus attention_bias at the padded positions; output = softmax weights V, heads merged, one row per
token (`_attention.packed_attention`).
"""

from __future__ import annotations

import math

import numpy as np

from conformance.kernels.com_microsoft._attention import packed_attention as attend
from conformance.kernels.registry import kernel

OP = "PackedAttention"


@kernel("com.microsoft", OP, since=1)
def packed_attention(input: np.ndarray, weights: np.ndarray, bias: np.ndarray, token_offset: np.ndarray,
                     cumulative_sequence_length: np.ndarray, attention_bias: np.ndarray | None, *, num_heads: int,
                     qkv_hidden_sizes: list[int] | None, scale: float | None) -> tuple[np.ndarray, ...]:
    if input.ndim != 2 or weights.ndim != 2 or weights.shape[0] != input.shape[1] or bias.shape != weights.shape[1:]:
        raise ValueError(f"{OP}: input (tokens, input_hidden), weights (input_hidden, width) and bias (width) "
                         f"expected, got {input.shape}, {weights.shape} and {bias.shape}")
    width = weights.shape[1]
    sizes = list(qkv_hidden_sizes) if qkv_hidden_sizes else [width // 3] * 3
    if len(sizes) != 3 or sum(sizes) != width or sizes[0] != sizes[1] or sizes[0] % num_heads \
            or sizes[2] % num_heads:
        raise ValueError(f"{OP}: hidden sizes {sizes} must be (hidden, hidden, v_hidden) adding up to {width}, each "
                         f"a multiple of num_heads {num_heads}")
    qkv = input.astype(np.float64) @ weights.astype(np.float64) + bias.astype(np.float64)
    q, k, v = qkv[:, :sizes[0]], qkv[:, sizes[0]:2 * sizes[0]], qkv[:, 2 * sizes[0]:]
    factor = scale if scale else 1.0 / math.sqrt(sizes[0] // num_heads)
    out = attend(OP, q, k, v, token_offset, cumulative_sequence_length, attention_bias, num_heads, factor)
    return (out.astype(input.dtype),)
