"""com.microsoft RemovePadding: right-padded sequences (batch, sequence, hidden) packed into their tokens.

With n[b] the token count of sequence b, token_offset lists the positions b * sequence + s of the tokens (s < n[b]),
batch after batch, then those of the padding (s >= n[b]), batch after batch; output row i is the flattened input's
row token_offset[i]; cumulated_seq_len is 0 then the running sums of n; max_seq_len is the largest n.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel

OP = "RemovePadding"


def token_offsets(counts: np.ndarray, sequence: int) -> np.ndarray:
    """(batch, sequence) int32: the tokens' flattened positions first, then the padding's."""
    pos = np.arange(sequence)[None, :]
    flat = np.arange(counts.size)[:, None] * sequence + pos
    real = pos < counts[:, None]
    return np.concatenate([flat[real], flat[~real]]).reshape(counts.size, sequence).astype(np.int32)


@kernel("com.microsoft", OP, since=1)
def remove_padding(input: np.ndarray, sequence_token_count: np.ndarray) -> tuple[np.ndarray, ...]:
    if input.ndim != 3 or sequence_token_count.shape != input.shape[:1]:
        raise ValueError(f"{OP}: input (batch, sequence, hidden) and sequence_token_count (batch) expected, got "
                         f"{input.shape} and {sequence_token_count.shape}")
    batch, sequence, hidden = input.shape
    counts = sequence_token_count.astype(np.int64)
    if np.any(counts < 0) or np.any(counts > sequence):
        raise ValueError(f"{OP}: token counts {counts.tolist()} must lie in [0, {sequence}]")
    offsets = token_offsets(counts, sequence)
    total = int(counts.sum())
    output = input.reshape(batch * sequence, hidden)[offsets.reshape(-1)[:total]]
    cumulated = np.concatenate([[0], np.cumsum(counts)]).astype(np.int32)
    longest = np.array([counts.max() if batch else 0], dtype=np.int32)
    return output, offsets, cumulated, longest
