"""com.microsoft WordConvEmbedding: a character CNN word embedding (char lookup, 1-D conv, tanh, max over time).

Sequence is [seq_len, word_len] character ids, one word a row; a word's length is the number of its ids above 0
(0 when its first id is not above 0). W is the conv weight [embedding_size, 1, conv_window_size,
char_embedding_size], B its bias [embedding_size], C the character embeddings [vocabulary, char_embedding_size].
For a word of length L >= 1 the first max(L, conv_window_size) ids are looked up in C, every window of
conv_window_size consecutive embeddings is flattened and projected by W (plus B), tanh is applied and the maximum
over the windows is the word's embedding (Y is [seq_len, embedding_size]). onnxruntime writes nothing for a word of
length 0; this kernel gives it zeros.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("com.microsoft", "WordConvEmbedding", since=1)
def word_conv_embedding(sequence: np.ndarray, w: np.ndarray, b: np.ndarray, c: np.ndarray, *,
                        char_embedding_size: int | None, conv_window_size: int | None,
                        embedding_size: int | None) -> tuple[np.ndarray, ...]:
    if sequence.ndim != 2 or w.ndim != 4 or b.ndim != 1 or c.ndim != 2:
        raise ValueError(f"WordConvEmbedding: expected Sequence 2-D, W 4-D, B 1-D, C 2-D, got {sequence.shape}, "
                         f"{w.shape}, {b.shape}, {c.shape}")
    filters, _, width, depth = w.shape
    if embedding_size is not None and embedding_size != -1 and embedding_size != filters:
        raise ValueError(f"WordConvEmbedding: embedding_size {embedding_size} != W's filter count {filters}")
    if conv_window_size is not None and conv_window_size != -1 and conv_window_size != width:
        raise ValueError(f"WordConvEmbedding: conv_window_size {conv_window_size} != W's window {width}")
    if char_embedding_size is not None and char_embedding_size != -1 and char_embedding_size != c.shape[1]:
        raise ValueError(f"WordConvEmbedding: char_embedding_size {char_embedding_size} != C's width {c.shape[1]}")
    if c.shape[1] != depth or b.shape[0] != filters or w.shape[1] != 1:
        raise ValueError(f"WordConvEmbedding: W {w.shape}, B {b.shape} and C {c.shape} do not fit together")
    seq_len, word_len = sequence.shape
    if width > word_len:
        raise ValueError(f"WordConvEmbedding: the window {width} is longer than a word slot {word_len}")
    ids = sequence.astype(np.int64)
    lengths = np.where(ids[:, 0] > 0, np.sum(ids > 0, axis=1), 0) if word_len else np.zeros(seq_len, np.int64)
    looked = np.maximum(lengths, width)[:, None] > np.arange(word_len)[None, :]
    looked &= (lengths > 0)[:, None]
    bad = looked & ((ids < 0) | (ids >= c.shape[0]))
    if np.any(bad):
        raise ValueError(f"WordConvEmbedding: character ids must lie in [0, {c.shape[0]}), got {ids[bad].tolist()}")
    emb = np.where(looked[:, :, None], c.astype(np.float32)[np.where(looked, ids, 0)], np.float32(0))
    windows = np.lib.stride_tricks.sliding_window_view(emb, width, axis=1)  # [seq, n_win, depth, width]
    windows = windows.transpose(0, 1, 3, 2).reshape(seq_len, word_len - width + 1, width * depth)
    conv = np.tanh(windows @ w.astype(np.float32).reshape(filters, width * depth).T + b.astype(np.float32))
    n_win = np.maximum(lengths, width) - width + 1
    valid = np.arange(word_len - width + 1)[None, :] < n_win[:, None]
    y = np.max(np.where(valid[:, :, None], conv, np.float32(-1e12)), axis=1)
    y = np.where((lengths > 0)[:, None], y, np.float32(0))
    return (y.astype(np.float32),)
