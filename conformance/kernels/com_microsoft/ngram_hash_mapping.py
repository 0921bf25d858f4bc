"""com.microsoft NGramHashMapping: Engram n-gram hash ids of (batch, sequence) compressed token ids, each row
threaded through past_ids (conformance/kernels/com_microsoft/_ngram.py for the hash). present_ids is the trailing
max_ngram_size - 1 ids of the history followed by the row's ids (the raw ids, without EOS or segment resets)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft._ngram import check_tables, sequence_hashes
from conformance.kernels.registry import kernel


@kernel("com.microsoft", "NGramHashMapping", since=1)
def ngram_hash_mapping(input_ids: np.ndarray, multipliers: np.ndarray, vocab_sizes: np.ndarray,
                       past_ids: np.ndarray | None, head_offsets: np.ndarray | None, eos_token_id: np.ndarray | None,
                       segment_ids: np.ndarray | None, *, max_ngram_size: int, n_head_per_ngram: int, pad_id: int,
                       reset_on_eos: int) -> tuple[np.ndarray, ...]:
    op = "NGramHashMapping"
    if input_ids.ndim != 2:
        raise ValueError(f"{op}: input_ids must be (batch, sequence), got {input_ids.shape}")
    check_tables(op, multipliers, vocab_sizes, head_offsets, max_ngram_size, n_head_per_ngram)
    batch, length = input_ids.shape
    p = max_ngram_size - 1
    if eos_token_id is not None and eos_token_id.ndim != 0:
        raise ValueError(f"{op}: eos_token_id must be a scalar, got shape {eos_token_id.shape}")
    eos = None if eos_token_id is None else int(eos_token_id)
    fill = pad_id if eos is None else eos
    if past_ids is None:
        history = np.full((batch, p), fill, dtype=input_ids.dtype)
    elif past_ids.shape != (batch, p):
        raise ValueError(f"{op}: past_ids {past_ids.shape} must be (batch, max_ngram_size - 1) = {(batch, p)}")
    else:
        history = past_ids
    if segment_ids is not None and segment_ids.shape != input_ids.shape:
        raise ValueError(f"{op}: segment_ids {segment_ids.shape} must match input_ids {input_ids.shape}")
    rows = [sequence_hashes(input_ids[b], history[b], None if segment_ids is None else segment_ids[b], multipliers,
                            vocab_sizes, head_offsets, max_ngram_size=max_ngram_size,
                            n_head_per_ngram=n_head_per_ngram, fill=fill, eos=eos, reset_on_eos=bool(reset_on_eos))
            for b in range(batch)]
    hashes = np.stack(rows) if rows else np.zeros((0, length, p * n_head_per_ngram), input_ids.dtype)
    present = np.concatenate([history, input_ids], axis=1)[:, -p:] if p else history
    return hashes.astype(input_ids.dtype), present.astype(input_ids.dtype)
