"""com.microsoft Tokenizer: each string of X ([C] or [N, C]) cut into tokens along a new last axis.

Modes (onnxruntime's kernel; patterns are RE2, matched leftmost-longest as onnxruntime configures RE2):
- character mode (separators == [""] or tokenexp == "."): every character is a token.
- separators: each separator in turn cuts every token the previous ones left; the text between two matches (and
  after the last) is a token if it has at least mincharnum characters. Where a separator matches the empty string
  the text before the match is a token as usual and the search goes on one character after the match (that
  character is dropped, as onnxruntime drops it); an empty match at the end of the text leaves no trailing token
  (onnxruntime's trailing length then underflows and its UTF-8 count over it fails, so it records none). A
  separator that matches the empty string everywhere ("", "a*", "x?") therefore leaves no token at all.
- tokenexp: the matches of the pattern, searched from the left; a match shorter than mincharnum characters is
  skipped by one character from where it starts.
Rows are padded with pad_value to the longest row; with mark the row's tokens are enclosed in "\\x02" and
"\\x03" (the padding comes after the end mark). Where no string gives a token the last axis is 0 long; an input
without elements gives [0] ([C] input) or [N, 0] ([N, C] input).

Patterns go through the RE2 reading of RegexFullMatch (`conformance.kernels.ai_onnx._re2`); this kernel refuses
the end anchors and word boundaries ($, \\z, \\b, \\B), which its leftmost-longest search cannot place.
"""

from __future__ import annotations

import re

import numpy as np

from conformance.kernels.ai_onnx._re2 import compile_re2
from conformance.kernels.registry import kernel

START, END = "\x02", "\x03"
_UNPLACEABLE = re.compile(r"\$|\\[zbB]")


def _compile(pattern: str) -> re.Pattern[str]:
    if _UNPLACEABLE.search(pattern):
        raise ValueError(f"Tokenizer: this kernel does not place end anchors or word boundaries: {pattern!r}")
    return compile_re2(pattern)


def leftmost_longest(p: re.Pattern[str], text: str, start: int) -> tuple[int, int] | None:
    """(begin, end) of RE2's leftmost-longest match of `p` in text[start:], or None."""
    for i in range(start, len(text) + 1):
        if p.match(text, i) is None:  # nothing starts here (a match of any length would make this succeed)
            continue
        for j in range(len(text), i - 1, -1):
            if p.fullmatch(text, i, j) is not None:
                return i, j
    return None


def _split(p: re.Pattern[str], text: str, mincharnum: int) -> list[str]:
    out: list[str] = []
    start = 0
    while True:
        m = leftmost_longest(p, text, start)
        if m is None:
            if len(text) - start >= mincharnum:
                out.append(text[start:])
            return out
        begin, end = m
        if begin - start >= mincharnum:
            out.append(text[start:begin])
        if end == begin:  # an empty match: skip one character; past the end there is no trailing token
            if begin >= len(text):
                return out
            start = begin + 1
        else:
            start = end


def _match_tokens(p: re.Pattern[str], text: str, mincharnum: int) -> list[str]:
    out: list[str] = []
    start = 0
    while start <= len(text):
        m = leftmost_longest(p, text, start)
        if m is None:
            break
        begin, end = m
        if end - begin >= mincharnum:
            out.append(text[begin:end])
            start = end
        else:
            start = begin + 1
    return out


@kernel("com.microsoft", "Tokenizer", since=1)
def tokenizer(x: np.ndarray, *, mark: int, mincharnum: int, pad_value: str, separators: list[str] | None,
              tokenexp: str | None) -> tuple[np.ndarray, ...]:
    if x.ndim not in (1, 2):
        raise ValueError(f"Tokenizer: X must be [C] or [N, C], got {x.shape}")
    if mincharnum < 1:
        raise ValueError(f"Tokenizer: mincharnum must be positive, got {mincharnum}")
    if separators is None and not tokenexp:
        raise ValueError("Tokenizer: separators or a non-empty tokenexp is required")
    if separators is not None and len(separators) == 0:
        raise ValueError("Tokenizer: separators must not be empty")
    chars = list(separators) == [""] if separators is not None else tokenexp == "."
    if chars and mincharnum >= 2:
        raise ValueError(f"Tokenizer: mincharnum {mincharnum} is too big for character tokenization")
    if x.size == 0:
        return (np.zeros(([x.shape[0]] if x.ndim == 2 else []) + [0], dtype=object),)
    texts = [str(s) for s in x.reshape(-1).tolist()]
    if chars:
        rows = [list(t) for t in texts]
    elif separators is not None:
        patterns = [_compile(s) for s in separators]
        rows = []
        for t in texts:
            row = [t]
            for p in patterns:
                row = [piece for text in row for piece in _split(p, text, mincharnum)]
            rows.append(row)
    else:
        assert tokenexp is not None
        p = _compile(tokenexp)
        rows = [_match_tokens(p, t, mincharnum) for t in texts]
    width = max(len(r) for r in rows)
    if width == 0:
        return (np.zeros((*x.shape, 0), dtype=object),)
    marks = 2 if mark else 0
    y = np.full((len(rows), width + marks), pad_value, dtype=object)
    for i, r in enumerate(rows):
        body = [START, *r, END] if mark else r
        y[i, : len(body)] = body
    return (y.reshape((*x.shape, width + marks)),)
