"""com.microsoft DecoderMaskedMultiHeadAttention: one decoding step (sequence length 1) of multi-head attention, as
onnxruntime's CPU kernel computes it.

Self attention: query, key and value are (batch, 1, hidden) (or query packs Q, K and V, split here), bias
(hidden + hidden + v_hidden) is added to each, and past_key / past_value are shared buffers (batch, heads,
max_sequence, head_size) holding past_sequence_length valid rows: the new key and value are written at that row and
the query attends to the rows up to it; present_key / present_value are the whole buffers. With beam_width > 1 the
batch holds batch / beam_width groups of beam_width beams, and key row t < past_sequence_length of beam j in group g
is read from beam cache_indirection[g, j, t] of that group (the presents keep each beam's own rows). Cross attention:
key and value are already in heads (batch, heads, kv_sequence, head_size), bias is added to the query only, and the
presents are key and value themselves. Scores are scale * Q K^T (1 / sqrt(head_size) when scale is absent or 0) plus
attention_bias plus mask_filter_value where the (batch, total_sequence) mask_index is 0; qk holds them before the
softmax. The rest is MultiHeadAttention's kernel, which this one calls.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft.multi_head_attention import multi_head_attention
from conformance.kernels.registry import kernel

OP = "DecoderMaskedMultiHeadAttention"


def beam_sources(past_key: np.ndarray, past_value: np.ndarray, past: int, beams: int,
                 cache_indirection: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The past rows each beam reads: row t < past of beam j in group g comes from beam cache_indirection[g, j, t]."""
    batch = past_key.shape[0]
    groups = batch // beams
    if cache_indirection.ndim != 3 or cache_indirection.shape[:2] != (groups, beams) \
            or cache_indirection.shape[2] < past:
        raise ValueError(f"{OP}: cache_indirection must be ({groups}, {beams}, at least {past}), got "
                         f"{cache_indirection.shape}")
    source = cache_indirection[:, :, :past].astype(np.int64)
    if np.any(source < 0) or np.any(source >= beams):
        raise ValueError(f"{OP}: cache_indirection holds beams in [0, {beams}), got {source.min()}..{source.max()}")
    rows = (np.arange(groups)[:, None, None] * beams + source).reshape(batch, past)  # (batch, past)
    t = np.arange(past)[None, :]
    key, value = past_key.copy(), past_value.copy()
    key[:, :, :past] = np.transpose(past_key[rows, :, t], (0, 2, 1, 3))
    value[:, :, :past] = np.transpose(past_value[rows, :, t], (0, 2, 1, 3))
    return key, value


@kernel("com.microsoft", OP, since=1)
def decoder_masked_multi_head_attention(
        query: np.ndarray, key: np.ndarray | None, value: np.ndarray | None, mask_index: np.ndarray | None,
        attention_bias: np.ndarray | None, past_key: np.ndarray | None, past_value: np.ndarray | None,
        past_sequence_length: np.ndarray | None, beam_width: np.ndarray | None,
        cache_indirection: np.ndarray | None, bias: np.ndarray | None, *, mask_filter_value: float, num_heads: int,
        output_qk: int, past_present_share_buffer: int, scale: float | None) -> tuple[np.ndarray, ...]:
    if query.ndim != 3 or query.shape[1] != 1:
        raise ValueError(f"{OP}: query must be (batch, 1, hidden), got {query.shape}")
    if key is None and value is None:
        if query.shape[2] % 3:
            raise ValueError(f"{OP}: packed QKV must be (batch, 1, 3 * hidden), got {query.shape}")
        hidden = query.shape[2] // 3
        query, key, value = query[..., :hidden], query[..., hidden:2 * hidden], query[..., 2 * hidden:]
    if key is None or value is None:
        raise ValueError(f"{OP}: key and value come together (or neither, with packed QKV)")
    if mask_index is not None and mask_index.ndim != 2:
        raise ValueError(f"{OP}: mask_index must be (batch, total_sequence), got {mask_index.shape}")
    beams = 1 if beam_width is None else int(beam_width.reshape(-1)[0])
    if key.ndim == 4:  # cross attention over keys and values already in heads
        if past_key is not None or past_value is not None:
            raise ValueError(f"{OP}: cross attention (key and value in heads) takes no past_key / past_value")
        if attention_bias is not None:
            raise ValueError(f"{OP}: onnxruntime takes no attention_bias in cross attention")
        out = multi_head_attention(query, key, value, bias, mask_index, None, None, None, None, None,
                                   mask_filter_value=mask_filter_value, num_heads=num_heads, scale=scale,
                                   unidirectional=0)
        return out
    if past_key is None or past_value is None or past_sequence_length is None or not past_present_share_buffer:
        raise ValueError(f"{OP}: self attention needs past_key, past_value and past_sequence_length in shared "
                         "buffers (past_present_share_buffer = 1)")
    if key.shape[1] != 1 or value.shape[1] != 1:
        raise ValueError(f"{OP}: key and value of self attention must be (batch, 1, hidden), got {key.shape} and "
                         f"{value.shape}")
    past = int(past_sequence_length.reshape(-1)[0])
    read_key, read_value = past_key, past_value
    if beams > 1:
        if cache_indirection is None:
            raise ValueError(f"{OP}: beam_width {beams} needs cache_indirection")
        if query.shape[0] % beams:
            raise ValueError(f"{OP}: batch {query.shape[0]} must be a multiple of beam_width {beams}")
        if not 0 <= past <= past_key.shape[2]:
            raise ValueError(f"{OP}: past_sequence_length {past} outside the buffer of {past_key.shape[2]}")
        read_key, read_value = beam_sources(past_key, past_value, past, beams, cache_indirection)
    output, present_key, present_value, qk = multi_head_attention(
        query, key, value, bias, mask_index, attention_bias, read_key, read_value, past_sequence_length, None,
        mask_filter_value=mask_filter_value, num_heads=num_heads, scale=scale, unidirectional=0)
    if beams > 1:  # the presents keep each beam's own past rows
        present_key, present_value = present_key.copy(), present_value.copy()
        present_key[:, :, :past] = past_key[:, :, :past]
        present_value[:, :, :past] = past_value[:, :, :past]
    return output, present_key, present_value, qk
