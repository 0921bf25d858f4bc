"""com.microsoft NGramRepeatBlock: scores of the tokens that would repeat an n-gram set to -inf.

For each batch row, every earlier n-gram of input_ids whose first ngram_size - 1 tokens equal the last
ngram_size - 1 tokens of the row bans its last token: that token's score becomes -inf. Nothing is banned while
the row is shorter than ngram_size - 1.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("com.microsoft", "NGramRepeatBlock", since=1)
def n_gram_repeat_block(input_ids: np.ndarray, scores: np.ndarray, *, ngram_size: int) -> tuple[np.ndarray, ...]:
    if input_ids.ndim != 2 or scores.ndim != 2 or input_ids.shape[0] != scores.shape[0]:
        raise ValueError(f"NGramRepeatBlock: input_ids [batch, len] and scores [batch, vocab] must share the batch,"
                         f" got {input_ids.shape} and {scores.shape}")
    if ngram_size < 1:
        raise ValueError(f"NGramRepeatBlock: ngram_size must be positive, got {ngram_size}")
    out = scores.copy()
    length = input_ids.shape[1]
    n = int(ngram_size)
    starts = length - n + 1  # n-grams wholly inside the row
    if length + 1 < n or starts <= 0:
        return (out,)
    ids = input_ids.astype(np.int64)
    # windows[b, i, j] = ids[b, i + j] for i < starts, j < n
    windows = np.lib.stride_tricks.sliding_window_view(ids, n, axis=1)[:, :starts, :]
    tail = ids[:, length - n + 1:]  # the last n - 1 tokens
    hit = np.all(windows[:, :, : n - 1] == tail[:, None, :], axis=2)  # [batch, starts]
    banned = windows[:, :, n - 1]
    vocab = scores.shape[1]
    rows, cols = np.nonzero(hit)
    tokens = banned[rows, cols]
    if np.any((tokens < 0) | (tokens >= vocab)):
        raise ValueError(f"NGramRepeatBlock: a banned token id lies outside the vocabulary [0, {vocab})")
    out[rows, tokens] = -np.inf
    return (out,)
