"""com.microsoft BifurcationDetector: one step of aggressive decoding's token merging and suffix matching.

With pred_tokens (length len(src_tokens) + 1 - prev_suffix_match_idx), the bifurcation index k is the length of
the longest common prefix of pred_tokens and src_tokens[prev_suffix_match_idx:]; tokens = cur_tokens followed by
pred_tokens[:k + 1]. Without it tokens = cur_tokens. Then, for n = min_ngram_size .. max_ngram_size (while n <=
len(tokens)), the last n tokens are looked up in src_tokens: no occurrence stops the search; an occurrence whose
end reaches the end of src_tokens stops it with that end; exactly one occurrence gives its end index (start + n)
and goes on to the next n; several give -1 and go on. suffix_match_idx is the last value given (-1 if none).
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


def _find(hay: list[int], needle: list[int], start: int) -> int:
    n = len(needle)
    for i in range(start, len(hay) - n + 1):
        if hay[i:i + n] == needle:
            return i
    return -1


@kernel("com.microsoft", "BifurcationDetector", since=1)
def bifurcation_detector(src_tokens: np.ndarray, cur_tokens: np.ndarray, prev_suffix_match_idx: np.ndarray,
                         pred_tokens: np.ndarray | None, *, max_ngram_size: int,
                         min_ngram_size: int) -> tuple[np.ndarray, ...]:
    if min_ngram_size < 1 or max_ngram_size < min_ngram_size:
        raise ValueError(f"BifurcationDetector: need 1 <= min_ngram_size <= max_ngram_size, got "
                         f"{min_ngram_size}, {max_ngram_size}")
    if src_tokens.ndim != 1 or cur_tokens.ndim != 1:
        raise ValueError(f"BifurcationDetector: src_tokens and cur_tokens must be 1-D, got {src_tokens.shape}, "
                         f"{cur_tokens.shape}")
    src = src_tokens.astype(np.int64).tolist()
    if pred_tokens is None:
        tokens = cur_tokens.astype(np.int64)
    else:
        prev = int(np.asarray(prev_suffix_match_idx).reshape(-1)[0])
        if not 0 <= prev <= len(src):
            raise ValueError(f"BifurcationDetector: prev_suffix_match_idx {prev} must lie in [0, {len(src)}]")
        pred = pred_tokens.astype(np.int64).reshape(-1)
        if pred.size != len(src) + 1 - prev:
            raise ValueError(f"BifurcationDetector: pred_tokens must hold {len(src) + 1 - prev} tokens, "
                             f"got {pred.size}")
        rest = np.asarray(src[prev:], dtype=np.int64)
        differ = np.nonzero(pred[: rest.size] != rest)[0]
        k = int(differ[0]) if differ.size else rest.size
        tokens = np.concatenate([cur_tokens.astype(np.int64), pred[: k + 1]])
    out = tokens.tolist()
    suffix = -1
    for n in range(min_ngram_size, max_ngram_size + 1):
        if n > len(out):
            break
        needle = out[len(out) - n:]
        at = _find(src, needle, 0)
        if at < 0:
            break
        suffix = at + n
        if suffix >= len(src):
            break
        if _find(src, needle, suffix - n + 1) >= 0:
            suffix = -1
    idx = np.full(np.asarray(prev_suffix_match_idx).shape, suffix, dtype=np.int64)
    return tokens.astype(src_tokens.dtype), idx
