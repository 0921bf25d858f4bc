"""CategoryMapper: strings to int64 through cats_strings -> cats_int64s, or int64 to strings the other way."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx_ml._lookup import KeyTable, as_text, pick
from conformance.kernels.registry import kernel


@kernel("ai.onnx.ml", "CategoryMapper", since=1)
def category_mapper(X: np.ndarray, *, cats_int64s: list[int] | None, cats_strings: list[str] | None,
                    default_int64: int, default_string: str) -> tuple[np.ndarray, ...]:
    if cats_int64s is None or cats_strings is None or len(cats_int64s) != len(cats_strings):
        raise ValueError("CategoryMapper: cats_int64s and cats_strings must both be given, with the same length")
    ints = np.asarray(cats_int64s, dtype=np.int64)
    texts = as_text(cats_strings)
    if X.dtype.kind in "OUS":
        return (pick(KeyTable(texts).find(as_text(X)), ints, default_int64),)
    if X.dtype != np.int64:
        raise ValueError(f"CategoryMapper: X must hold strings or int64, not {X.dtype}")
    return (pick(KeyTable(ints).find(X), texts, default_string),)
