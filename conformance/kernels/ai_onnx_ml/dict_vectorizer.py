"""DictVectorizer: a [1, C] row holding the map's value for each of the C vocabulary entries (zero, or the empty
string, where the map has none; keys the vocabulary lacks are dropped)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from conformance.kernels.ai_onnx_ml._lookup import as_text
from conformance.kernels.registry import kernel


def value_dtype(values: list[Any]) -> np.dtype:
    """The element type a map's values carry: numpy scalars keep theirs; Python floats are float32 (the map
    types DictVectorizer and CastMap take hold float), ints int64, strings object."""
    if not values:
        return np.dtype(np.float32)
    first = values[0]
    if isinstance(first, np.generic | np.ndarray):
        return np.asarray(first).dtype if np.asarray(first).dtype.kind not in "US" else np.dtype(object)
    if isinstance(first, str | bytes):
        return np.dtype(object)
    if isinstance(first, bool | int):
        return np.dtype(np.int64)
    return np.dtype(np.float32)


@kernel("ai.onnx.ml", "DictVectorizer", since=1)
def dict_vectorizer(X: Mapping[Any, Any], *, int64_vocabulary: list[int] | None,
                    string_vocabulary: list[str] | None) -> tuple[np.ndarray, ...]:
    given = [v for v in (string_vocabulary, int64_vocabulary) if v]
    if len(given) != 1:
        raise ValueError("DictVectorizer: exactly one of string_vocabulary and int64_vocabulary must be given")
    vocabulary = list(as_text(given[0])) if string_vocabulary else [int(k) for k in given[0]]
    entries = {(k.decode("utf-8") if isinstance(k, bytes) else k): v for k, v in dict(X).items()}
    dtype = value_dtype(list(entries.values()))
    empty: Any = "" if dtype.kind == "O" else 0
    row = [entries.get(key, empty) for key in vocabulary]
    out = np.empty((1, len(row)), dtype=dtype)
    out[0, :] = [np.asarray(v).reshape(-1)[0] if np.ndim(v) else v for v in row]
    return (out,)
