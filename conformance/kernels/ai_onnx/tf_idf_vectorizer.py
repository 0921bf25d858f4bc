"""TfIdfVectorizer: counts of the pool's n-grams in each row of X (one row for a 1-D X), weighted by mode.

The pool (pool_int64s or pool_strings) lists the 1-grams, then the 2-grams ... flat; ngram_counts[k] is where the
(k + 1)-grams start in it (in items, not n-grams), and the pool's g-th n-gram (counted over all sizes in pool order)
is counted into output coordinate ngram_indexes[g]. For each n from min_gram_length to max_gram_length and each
skip s from 0 to max_skip_count, the n-grams of a row are X[i], X[i + s + 1], ..., X[i + (n - 1) * (s + 1)] for
every start i that keeps the last item inside the row; a 1-gram has no gaps, so it is counted once per position
whatever the skips. An n-gram the pool lacks counts nowhere. TF gives the counts, IDF min(count, 1) * weight,
TFIDF count * weight (weights default to 1), as float32 of shape [max(ngram_indexes) + 1] per row.

Every n-gram becomes one integer code (items numbered over the pool and X together, an n-gram read as an n-digit
number in that base), so the counting is numpy's, not a loop over the n-grams.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from conformance.kernels.registry import kernel

OP = "TfIdfVectorizer"
MODES = ("TF", "IDF", "TFIDF")


def pool_ngrams(pool: Sequence[object], ngram_counts: Sequence[int]) -> list[tuple[int, list[object]]]:
    """(n, items) of every n-gram of the pool, in pool order."""
    starts = [int(c) for c in ngram_counts]
    grams: list[tuple[int, list[object]]] = []
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(pool)
        n = k + 1
        if not 0 <= start <= end <= len(pool) or (end - start) % n:
            raise ValueError(f"{OP}: ngram_counts {list(starts)} does not cut the pool ({len(pool)} items) into "
                             f"whole {n}-grams at position {k}")
        grams += [(n, list(pool[i:i + n])) for i in range(start, end, n)]
    return grams


def _codes(ids: np.ndarray, n: int, skip: int, base: int) -> np.ndarray:
    """The code of every n-gram with `skip` items between neighbours, per row: [rows, starts]."""
    span = (n - 1) * (skip + 1)
    starts = ids.shape[1] - span
    if starts <= 0:
        return np.zeros((ids.shape[0], 0), dtype=np.int64)
    code = np.zeros((ids.shape[0], starts), dtype=np.int64)
    for k in range(n):  # one vectorised pass per item of the n-gram
        at = k * (skip + 1)
        code = code * base + ids[:, at:at + starts]
    return code


@kernel("ai.onnx", "TfIdfVectorizer", since=9)
def tf_idf_vectorizer(x: np.ndarray, *, max_gram_length: int, max_skip_count: int, min_gram_length: int,
                      mode: str, ngram_counts: list[int], ngram_indexes: list[int], pool_int64s: list[int] | None,
                      pool_strings: list[str] | None, weights: list[float] | None) -> tuple[np.ndarray, ...]:
    if mode not in MODES:
        raise ValueError(f"{OP}: mode must be one of {MODES}, got {mode!r}")
    if (pool_int64s is None) == (pool_strings is None):
        raise ValueError(f"{OP}: exactly one of pool_int64s and pool_strings must be given")
    strings = pool_strings is not None
    if strings != (x.dtype.kind == "O"):
        raise ValueError(f"{OP}: pool_strings goes with a string X, pool_int64s with an integer X (X is {x.dtype})")
    if x.ndim not in (1, 2):
        raise ValueError(f"{OP}: X must be [C] or [N, C], got shape {list(x.shape)}")
    if not 1 <= min_gram_length <= max_gram_length or max_skip_count < 0:
        raise ValueError(f"{OP}: need 1 <= min_gram_length <= max_gram_length and max_skip_count >= 0")
    pool: list[object] = list(pool_strings) if pool_strings is not None else [int(v) for v in pool_int64s or []]
    grams = pool_ngrams(pool, ngram_counts)
    if len(ngram_indexes) != len(grams) or min(ngram_indexes, default=0) < 0:
        raise ValueError(f"{OP}: ngram_indexes needs one index >= 0 per pool n-gram ({len(grams)})")
    if weights is not None and len(weights) != len(grams):
        raise ValueError(f"{OP}: weights needs one value per pool n-gram ({len(grams)})")
    rows = x.reshape(1, -1) if x.ndim == 1 else x
    items = np.asarray(pool + rows.reshape(-1).tolist(), dtype=object if strings else np.int64)
    # number the items (pool first); 0 is left free so that a leading item never vanishes from a code
    _, ids = np.unique(items, return_inverse=True)
    base = int(ids.max(initial=0)) + 2
    if float(base) ** max(max_gram_length, 1) >= 2.0**62:
        raise ValueError(f"{OP}: {base - 1} distinct items are too many to code {max_gram_length}-grams in int64")
    ids = ids.reshape(-1).astype(np.int64) + 1
    pool_ids, row_ids = ids[:len(pool)], ids[len(pool):].reshape(rows.shape)
    width = max(ngram_indexes, default=-1) + 1
    out = np.zeros((rows.shape[0], width), dtype=np.float64)
    weight = np.ones(len(grams)) if weights is None else np.asarray(weights, dtype=np.float64)
    offset = 0
    for g, (n, _) in enumerate(grams):  # pool codes per n-gram
        code = 0
        for item in pool_ids[offset:offset + n]:
            code = code * base + int(item)
        grams[g] = (n, [code])
        offset += n
    for n in range(min_gram_length, max_gram_length + 1):
        chosen = [g for g, (size, _) in enumerate(grams) if size == n]
        if not chosen:
            continue
        found = np.concatenate([_codes(row_ids, n, s, base) for s in range(max_skip_count + 1 if n > 1 else 1)],
                               axis=1)
        wanted = np.asarray([grams[g][1][0] for g in chosen], dtype=np.int64)
        counts = (found[:, :, None] == wanted[None, None, :]).sum(axis=1).astype(np.float64)  # [rows, chosen]
        if mode == "IDF":
            counts = np.minimum(counts, 1.0)
        if mode != "TF":
            counts = counts * weight[chosen]
        np.add.at(out, (slice(None), np.asarray(ngram_indexes, dtype=np.int64)[chosen]), counts)
    y = out.astype(np.float32)
    return (y.reshape(-1) if x.ndim == 1 else y,)
