"""com.microsoft VarlenNGramHashMapping: NGramHashMapping over a packed, token-major batch of requests; request i
holds tokens [cumulative_sequence_length[i], cumulative_sequence_length[i + 1]) and its own history (row i of
past_ids and past_segment_ids), so no n-gram window crosses into another request
(conformance/kernels/com_microsoft/_ngram.py for the hash).

present_ids (present_segment_ids) are the trailing max_ngram_size - 1 ids (segment ids) of each request's
history followed by its tokens; without past_segment_ids the history belongs to the request's first segment, and
without segment_ids present_segment_ids is zeros (onnxruntime refuses to produce it then). With
state_update_capacity > 0, slot c of a request's state_update is the trailing window after its local token c for
c < min(capture_count, request length, capacity), pad_id after that.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft._ngram import check_tables, sequence_hashes
from conformance.kernels.registry import kernel


@kernel("com.microsoft", "VarlenNGramHashMapping", since=1)
def varlen_ngram_hash_mapping(input_ids: np.ndarray, multipliers: np.ndarray, vocab_sizes: np.ndarray,
                              cumulative_sequence_length: np.ndarray, past_ids: np.ndarray | None,
                              head_offsets: np.ndarray | None, eos_token_id: np.ndarray | None,
                              segment_ids: np.ndarray | None, past_segment_ids: np.ndarray | None,
                              capture_count: np.ndarray | None, *, max_ngram_size: int, n_head_per_ngram: int,
                              pad_id: int, reset_on_eos: int,
                              state_update_capacity: int) -> tuple[np.ndarray, ...]:
    op = "VarlenNGramHashMapping"
    if input_ids.ndim != 1:
        raise ValueError(f"{op}: input_ids must be (total_tokens,), got {input_ids.shape}")
    check_tables(op, multipliers, vocab_sizes, head_offsets, max_ngram_size, n_head_per_ngram)
    cu = cumulative_sequence_length.astype(np.int64)
    batch, total, p = cu.shape[0] - 1, input_ids.shape[0], max_ngram_size - 1
    if batch < 0 or cu[0] != 0 or cu[-1] != total or (np.diff(cu) < 1).any():
        raise ValueError(f"{op}: cumulative_sequence_length {cu.tolist()} must rise strictly from 0 to "
                         f"total_tokens={total}")
    if eos_token_id is not None and eos_token_id.ndim != 0:
        raise ValueError(f"{op}: eos_token_id must be a scalar, got shape {eos_token_id.shape}")
    eos = None if eos_token_id is None else int(eos_token_id)
    fill = pad_id if eos is None else eos
    dtype = input_ids.dtype
    for name, given in (("past_ids", past_ids), ("past_segment_ids", past_segment_ids)):
        if given is not None and given.shape != (batch, p):
            raise ValueError(f"{op}: {name} {given.shape} must be (batch, max_ngram_size - 1) = {(batch, p)}")
    if segment_ids is not None and segment_ids.shape != input_ids.shape:
        raise ValueError(f"{op}: segment_ids {segment_ids.shape} must match input_ids {input_ids.shape}")
    if (state_update_capacity > 0) != (capture_count is not None):
        raise ValueError(f"{op}: capture_count is given exactly when state_update_capacity is positive")
    history = np.full((batch, p), fill, dtype) if past_ids is None else past_ids.astype(dtype)
    hashes = np.zeros((total, p * n_head_per_ngram), dtype)
    present = np.zeros((batch, p), dtype)
    present_segments = np.zeros((batch, p), np.int32)
    states = np.full((batch, state_update_capacity, p), pad_id, dtype)
    for i in range(batch):
        lo, hi = int(cu[i]), int(cu[i + 1])
        ids = input_ids[lo:hi]
        segs = None if segment_ids is None else segment_ids[lo:hi]
        past_segs = None if past_segment_ids is None else past_segment_ids[i]
        hashes[lo:hi] = sequence_hashes(ids, history[i], segs, multipliers, vocab_sizes, head_offsets,
                                        max_ngram_size=max_ngram_size, n_head_per_ngram=n_head_per_ngram, fill=fill,
                                        eos=eos, reset_on_eos=bool(reset_on_eos),
                                        past_segments=None if segs is None else past_segs)
        seq = np.concatenate([history[i], ids])
        present[i] = seq[seq.shape[0] - p:]
        if segs is not None:  # without past segments the history continues the request's first segment
            seg_history = past_segs if past_segs is not None else np.full(p, segs[0], np.int32)
            seg_seq = np.concatenate([seg_history, segs])
            present_segments[i] = seg_seq[seg_seq.shape[0] - p:]
        if capture_count is not None:
            for c in range(min(int(capture_count[i]), hi - lo, state_update_capacity)):
                states[i, c] = seq[c + 1:c + 1 + p]
    return hashes, present, present_segments, states
