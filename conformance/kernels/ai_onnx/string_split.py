"""StringSplit: each string cut at `delimiter` into substrings, padded with empty strings to the longest count.

With a delimiter, every occurrence cuts (consecutive ones delimit empty strings; a string without one is one
substring, itself, the empty string included). Without one (unset or ""), runs of whitespace cut (Python's
whitespace: str.isspace), and leading and trailing whitespace is dropped, also from the remainder `maxsplit`
leaves, so the empty string and one of whitespace only give no substring. `maxsplit` bounds the cuts from the
left (a negative one does not bound them, as Python and onnxruntime read it). Y is X's shape plus one axis as long
as the largest count; Z holds the counts.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


def split_one(text: str, delimiter: str | None, maxsplit: int | None) -> list[str]:
    limit = -1 if maxsplit is None else int(maxsplit)
    if delimiter:
        return text.split(delimiter, limit)
    parts = text.split(None, limit)
    if parts:
        parts[-1] = parts[-1].rstrip()  # the remainder after maxsplit cuts keeps no trailing whitespace
    return parts


@kernel("ai.onnx", "StringSplit", since=20)
def string_split(x: np.ndarray, *, delimiter: str | None, maxsplit: int | None) -> tuple[np.ndarray, ...]:
    if x.dtype.kind != "O":
        raise ValueError(f"StringSplit: X must be a string tensor, got {x.dtype}")
    pieces = [split_one(str(s), delimiter, maxsplit) for s in x.reshape(-1).tolist()]
    counts = np.asarray([len(p) for p in pieces], dtype=np.int64).reshape(x.shape)
    width = int(counts.max(initial=0))
    y = np.full((len(pieces), width), "", dtype=object)
    for i, parts in enumerate(pieces):  # rows of ragged length: one slice assignment each
        y[i, :len(parts)] = parts
    return y.reshape((*x.shape, width)), counts
