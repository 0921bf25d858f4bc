"""What the com.microsoft attention kernels share: heads split and merged, onnxruntime's additive key masks, the
scaled dot product with its softmax, and rotary embedding.

Everything is computed in double and rounded once by the caller. Tensors in heads are (batch, heads, sequence,
head_size) (BNSH), as onnxruntime's kernels hold them.
"""

from __future__ import annotations

import numpy as np


def split_heads(x: np.ndarray, heads: int) -> np.ndarray:
    """(batch, sequence, heads * size) -> (batch, heads, sequence, size), in double."""
    b, s, hidden = x.shape
    return x.astype(np.float64).reshape(b, s, heads, hidden // heads).transpose(0, 2, 1, 3)


def merge_heads(x: np.ndarray) -> np.ndarray:
    """(batch, heads, sequence, size) -> (batch, sequence, heads * size)."""
    b, n, s, h = x.shape
    return x.transpose(0, 2, 1, 3).reshape(b, s, n * h)


def key_mask(op: str, mask: np.ndarray | None, batch: int, seq: int, total: int, past: int, causal: bool,
             filter_value: float, *, ends_of_3b2: bool = False) -> np.ndarray | None:
    """onnxruntime's additive mask (batch, seq, total) from a mask_index / key_padding_mask and the causal flag.

    1-D (batch): each entry's keys at or past its end position are masked; 1-D (2 * batch): the second half also
    masks the keys before each start position; 1-D (3 * batch + 2), where `ends_of_3b2` (Attention's CPU kernel
    reads only its first batch values, as end positions); 2-D (batch, total): 0 masks a key; 3-D (batch, seq,
    total): 0 masks a key for one query. A masked position adds `filter_value` (not -inf: a fully masked row
    averages its keys). The causal mask (query i sees keys up to past + i, the last query every key) excludes
    the future keys outright (-inf), so a query whose visible keys are all padded averages those keys only. A
    2-D mask of one column ((batch or 1, 1)) that is not (batch, total) masks nothing: onnxruntime drops it (at total
    1, (batch, 1) is a real mask and (1, 1) of a larger batch the dummy).
    """
    if mask is not None and mask.ndim == 2 and mask.shape[1] == 1 and mask.shape != (batch, total):
        mask = None
    if mask is None and not causal:
        return None
    keys = np.arange(total)
    future = keys[None, :] > past + np.arange(seq)[:, None]  # (seq, total)
    future[-1:] = False  # onnxruntime leaves the last query row unmasked (all keys, even past past + seq - 1)
    out = np.zeros((batch, seq, total))
    if mask is not None and mask.ndim == 3:
        if mask.shape != (batch, seq, total):
            raise ValueError(f"{op}: a 3-D mask must be (batch, sequence, total) = {(batch, seq, total)}, "
                             f"got {mask.shape}")
        out = np.where(mask > 0, 0.0, filter_value)
    elif mask is not None:
        if mask.ndim == 2:
            if mask.shape != (batch, total):
                raise ValueError(f"{op}: a 2-D mask must be (batch, total) = {(batch, total)}, got {mask.shape}")
            row = np.where(mask > 0, 0.0, filter_value)
        elif mask.ndim == 1 and (mask.shape[0] in (batch, 2 * batch)
                                 or (ends_of_3b2 and mask.shape[0] == 3 * batch + 2)):
            end = mask[:batch].astype(np.int64)[:, None]
            masked = keys[None, :] >= end
            if mask.shape[0] == 2 * batch and batch > 0:
                start = np.minimum(mask[batch:].astype(np.int64), total)[:, None]
                masked = masked | (keys[None, :] < start)
            row = np.where(masked, filter_value, 0.0)
        else:
            raise ValueError(f"{op}: mask of shape {mask.shape} is none of (batch), (2 * batch), (batch, total), "
                             f"(batch, sequence, total)")
        out = out + row[:, None, :]
    if causal:
        out = np.where(future[None], -np.inf, out)
    return out


def softmax(x: np.ndarray) -> np.ndarray:
    """Softmax over the last axis of scores that onnxruntime holds in float: they are rounded to float first, so
    a row whose keys are all masked (each score plus -10000) keeps float's precision there."""
    x = x.astype(np.float32).astype(np.float64)
    top = np.max(x, axis=-1, keepdims=True)
    e = np.exp(x - top)
    out: np.ndarray = e / e.sum(axis=-1, keepdims=True)
    return out


def scores(q: np.ndarray, k: np.ndarray, scale: float) -> np.ndarray:
    """scale * Q K^T: (batch, heads, seq, total) from BNSH q and k (k's heads repeated to q's by the caller)."""
    out: np.ndarray = scale * (q @ np.swapaxes(k, -1, -2))
    return out


def check_bias(op: str, bias: np.ndarray, batch: int, heads: int, seq: int, total: int) -> None:
    """attention_bias must be (batch or 1, heads or 1, seq, total)."""
    if bias.ndim != 4 or bias.shape[0] not in (1, batch) or bias.shape[1] not in (1, heads) \
            or bias.shape[2:] != (seq, total):
        raise ValueError(f"{op}: attention_bias must be (batch or 1, heads or 1, {seq}, {total}), got {bias.shape}")


def rotate(x: np.ndarray, cos: np.ndarray, sin: np.ndarray, interleaved: bool) -> np.ndarray:
    """Rotary embedding of BNSH `x` over its first 2 * cos.shape[-1] channels; cos and sin are (batch or 1, 1, seq,
    rotary_dim / 2) at each token's position. Interleaved pairs channels (2i, 2i+1), else (i, i + half)."""
    half = cos.shape[-1]
    rot, rest = x[..., :2 * half], x[..., 2 * half:]
    if interleaved:
        a, b = rot[..., 0::2], rot[..., 1::2]
        out = np.empty_like(rot)
        out[..., 0::2] = a * cos - b * sin
        out[..., 1::2] = a * sin + b * cos
    else:
        a, b = rot[..., :half], rot[..., half:]
        out = np.concatenate([a * cos - b * sin, a * sin + b * cos], axis=-1)
    return np.concatenate([out, rest], axis=-1)


def packed_attention(op: str, q: np.ndarray, k: np.ndarray, v: np.ndarray, token_offset: np.ndarray,
                     cumulative_sequence_length: np.ndarray, attention_bias: np.ndarray | None, heads: int,
                     scale: float) -> np.ndarray:
    """Attention over packed tokens (q, k: (tokens, hidden), v: (tokens, v_hidden), in double): the tokens are put at
    their padded positions token_offset[:tokens] of (batch, sequence), each query sees the keys of its own sequence
    (the first cumulative[b + 1] - cumulative[b] positions), attention_bias (batch or 1, heads or 1, sequence,
    sequence) is indexed by padded positions; the output rows are taken back at the tokens' positions."""
    if token_offset.ndim != 2 or cumulative_sequence_length.shape != (token_offset.shape[0] + 1,):
        raise ValueError(f"{op}: token_offset (batch, sequence) and cumulative_sequence_length (batch + 1) expected, "
                         f"got {token_offset.shape} and {cumulative_sequence_length.shape}")
    batch, seq = token_offset.shape
    tokens = q.shape[0]
    cumulative = cumulative_sequence_length.astype(np.int64)
    lengths = np.diff(cumulative)
    if cumulative[0] != 0 or np.any(lengths < 0) or np.any(lengths > seq) or cumulative[-1] != tokens:
        raise ValueError(f"{op}: cumulative_sequence_length {cumulative.tolist()} must rise from 0 to the {tokens} "
                         f"tokens by at most {seq} a sequence")
    pos = np.arange(seq)[None, :]
    flat = np.arange(batch)[:, None] * seq + pos
    real = pos < lengths[:, None]
    offsets = token_offset.reshape(-1).astype(np.int64)
    if offsets[:tokens].tolist() != flat[real].tolist():
        raise ValueError(f"{op}: token_offset must list the tokens' padded positions, sequence by sequence, as "
                         f"RemovePadding gives them")

    def padded(x: np.ndarray) -> np.ndarray:
        out = np.zeros((batch * seq, x.shape[1]))
        out[offsets[:tokens]] = x
        return out.reshape(batch, seq, x.shape[1])

    s = scores(split_heads(padded(q), heads), split_heads(padded(k), heads), scale)
    if attention_bias is not None:
        check_bias(op, attention_bias, batch, heads, seq, seq)
        s = s + attention_bias.astype(np.float64)
    s = np.where(real[:, None, None, :], s, -1e30)  # keys of other sequences and padding take no weight
    out = merge_heads(softmax(s) @ split_heads(padded(v), heads)).reshape(batch * seq, -1)
    rows: np.ndarray = out[offsets[:tokens]]
    return rows
