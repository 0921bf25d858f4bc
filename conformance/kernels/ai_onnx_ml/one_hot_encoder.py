"""OneHotEncoder: a last axis of one float per category, 1 at the element's category (strings looked up in
cats_strings, numbers truncated toward zero and looked up in cats_int64s)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx_ml._lookup import KeyTable, as_text
from conformance.kernels.registry import kernel


def _keys(X: np.ndarray) -> np.ndarray:
    """X as the look-up sees it: strings as they are, numbers cast to int64 toward zero (non-finite: no key)."""
    if X.dtype.kind in "OUS":
        return as_text(X)
    if X.dtype.kind != "f":
        return X.astype(np.int64)
    finite = np.isfinite(X) & (np.abs(X) < 2.0**63)
    # a float that no int64 can hold is left as NaN, which matches no integer category
    return np.where(finite, np.trunc(np.where(finite, X, 0)), np.nan)


@kernel("ai.onnx.ml", "OneHotEncoder", since=1)
def one_hot_encoder(X: np.ndarray, *, cats_int64s: list[int] | None, cats_strings: list[str] | None,
                    zeros: int) -> tuple[np.ndarray, ...]:
    given = [c for c in (cats_int64s, cats_strings) if c]
    if len(given) != 1:
        raise ValueError("OneHotEncoder: exactly one of cats_int64s and cats_strings must be given (and not empty)")
    categories = given[0]
    keys = _keys(X)
    if keys.dtype.kind == "f":  # an integral float compares equal to its integer category
        positions = KeyTable(np.asarray(categories, dtype=np.float64)).find(keys)
    else:
        positions = KeyTable(categories).find(keys)
    if not zeros and (positions < 0).any():
        missing = np.asarray(X)[positions < 0].reshape(-1)[:5].tolist()
        raise ValueError(f"OneHotEncoder: zeros = 0 and {missing} match no category")
    Y = (positions[..., None] == np.arange(len(categories))).astype(np.float32)
    return (Y,)
