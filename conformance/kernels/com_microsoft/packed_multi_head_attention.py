"""com.microsoft PackedMultiHeadAttention: MultiHeadAttention over the packed tokens of right-padded sequences, as
onnxruntime's CUDA kernel defines it.

query, key and value are (tokens, hidden), (tokens, hidden) and (tokens, v_hidden), or query packs them per head
(tokens, num_heads, 3, head_size); bias (hidden + hidden + v_hidden) is added to each. Token i sits at padded
position token_offset[i] (RemovePadding's layout) and sees the tokens of its own sequence (cumulative_sequence_length
gives each sequence's length); scores are scale * Q K^T (1 / sqrt(head_size) when scale is absent or 0) plus
attention_bias at the padded positions; output = softmax weights V, heads merged, one row per token
(`_attention.packed_attention`). Padding keys take no weight at all, so mask_filter_value changes nothing.
"""

from __future__ import annotations

import math

import numpy as np

from conformance.kernels.com_microsoft._attention import packed_attention as attend
from conformance.kernels.registry import kernel

OP = "PackedMultiHeadAttention"


@kernel("com.microsoft", OP, since=1)
def packed_multi_head_attention(query: np.ndarray, key: np.ndarray | None, value: np.ndarray | None,
                                bias: np.ndarray | None, token_offset: np.ndarray,
                                cumulative_sequence_length: np.ndarray, attention_bias: np.ndarray | None, *,
                                mask_filter_value: float, num_heads: int, scale: float | None
                                ) -> tuple[np.ndarray, ...]:
    tokens = query.shape[0]
    if query.ndim == 4:
        if key is not None or value is not None or query.shape[1:3] != (num_heads, 3):
            raise ValueError(f"{OP}: packed QKV must be (tokens, {num_heads}, 3, head_size) without key and value, "
                             f"got {query.shape}")
        parts = query.astype(np.float64)
        q, k, v = (parts[:, :, i, :].reshape(tokens, -1) for i in range(3))
    else:
        if query.ndim != 2 or key is None or value is None or key.shape != query.shape or value.ndim != 2 \
                or value.shape[0] != tokens or query.shape[1] % num_heads or value.shape[1] % num_heads:
            raise ValueError(f"{OP}: query and key (tokens, hidden) and value (tokens, v_hidden), the hidden sizes "
                             f"multiples of num_heads {num_heads}, expected")
        q, k, v = query.astype(np.float64), key.astype(np.float64), value.astype(np.float64)
    hidden, v_hidden = q.shape[1], v.shape[1]
    if bias is not None:
        if bias.shape != (2 * hidden + v_hidden,):
            raise ValueError(f"{OP}: bias must be ({2 * hidden + v_hidden},), got {bias.shape}")
        b = bias.astype(np.float64)
        q, k, v = q + b[:hidden], k + b[hidden:2 * hidden], v + b[2 * hidden:]
    factor = scale if scale else 1.0 / math.sqrt(hidden // num_heads)
    out = attend(OP, q, k, v, token_offset, cumulative_sequence_length, attention_bias, num_heads, factor)
    return (out.astype(query.dtype),)
