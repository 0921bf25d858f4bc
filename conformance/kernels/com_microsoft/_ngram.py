"""What NGramHashMapping and VarlenNGramHashMapping share: the n-gram hash of one sequence.

The sequence seen is its history (max_ngram_size - 1 right-aligned ids, the last the most recent; the fill id
where absent) followed by its ids. Shift k of position t reads the id k places back; with reset_on_eos and an
eos_token_id every position at or before the latest EOS strictly before t reads eos_token_id; with segment ids
every position before the start of t's segment reads the fill id (a segment starts where the id differs from
the previous position's; the call's first segment continues the history). The fill id is eos_token_id when
given, else pad_id. For n = 2 .. max_ngram_size: mix = (id_0 * m_0) xor ... xor (id_{n-1} * m_{n-1}) in the id
type's wrapping arithmetic, and head h of that order emits mix mod vocab (non-negative) plus its head offset,
the sum wrapping in the id type.
"""

from __future__ import annotations

import numpy as np


def check_tables(op: str, multipliers: np.ndarray, vocab_sizes: np.ndarray, head_offsets: np.ndarray | None,
                 max_ngram_size: int, n_head_per_ngram: int) -> None:
    heads = (max_ngram_size - 1) * n_head_per_ngram
    if multipliers.ndim != 1 or multipliers.shape[0] < max_ngram_size:
        raise ValueError(f"{op}: multipliers {multipliers.shape} must hold at least max_ngram_size={max_ngram_size}")
    if vocab_sizes.shape != (heads,) or (head_offsets is not None and head_offsets.shape != (heads,)):
        raise ValueError(f"{op}: vocab_sizes and head_offsets must be ((max_ngram_size - 1) * n_head_per_ngram,) = "
                         f"({heads},)")
    if (vocab_sizes <= 0).any():
        raise ValueError(f"{op}: vocab_sizes must be positive, got {vocab_sizes.tolist()}")
    if head_offsets is not None and (head_offsets < 0).any():  # onnxruntime's CPU kernel refuses them
        raise ValueError(f"{op}: head_offsets must be non-negative, got {head_offsets.tolist()}")


def sequence_hashes(ids: np.ndarray, history: np.ndarray, segments: np.ndarray | None, multipliers: np.ndarray,
                    vocab_sizes: np.ndarray, head_offsets: np.ndarray | None, *, max_ngram_size: int,
                    n_head_per_ngram: int, fill: int, eos: int | None, reset_on_eos: bool,
                    past_segments: np.ndarray | None = None) -> np.ndarray:
    """(len(ids), heads) hash ids of one sequence; history holds its max_ngram_size - 1 preceding ids and
    past_segments, when given, their segment ids (a boundary may then fall inside the history or at its end)."""
    dtype = ids.dtype
    p, s = history.shape[0], ids.shape[0]
    seq = np.concatenate([history, ids]).astype(dtype)
    t = np.arange(s)[:, None]
    k = np.arange(max_ngram_size)[None, :]
    src = p + t - k  # (S, N) index into seq
    tokens = seq[src]
    if eos is not None and reset_on_eos:
        is_eos = seq == eos
        # latest EOS index strictly before each position p + t (-1 where none)
        idx = np.where(is_eos, np.arange(p + s), -1)
        latest = np.maximum.accumulate(idx)
        before = np.concatenate([[-1], latest])[p + np.arange(s)]  # strictly before p + t
        tokens = np.where(src <= before[:, None], dtype.type(eos), tokens)
    if segments is not None:
        # indices into seq where a segment starts; without past segments the call's first segment continues the
        # history
        if past_segments is None:
            starts = np.concatenate([[0], p + 1 + np.flatnonzero(segments[1:] != segments[:-1])])
        else:
            both = np.concatenate([past_segments, segments])
            starts = np.concatenate([[0], 1 + np.flatnonzero(both[1:] != both[:-1])])
        start = starts[np.searchsorted(starts, p + np.arange(s), side="right") - 1]
        tokens = np.where(src < start[:, None], dtype.type(fill), tokens)
    with np.errstate(over="ignore"):
        products = tokens * multipliers[:max_ngram_size].astype(dtype)[None, :]
        mixes = np.bitwise_xor.accumulate(products, axis=1)[:, 1:]  # order n = k + 1 for k >= 1
        heads = np.repeat(mixes, n_head_per_ngram, axis=1)
        out = np.mod(heads, vocab_sizes.astype(dtype)[None, :]).astype(dtype)
        if head_offsets is not None:
            out = (out + head_offsets.astype(dtype)[None, :]).astype(dtype)
    result: np.ndarray = out
    return result
