"""Normalizer: each row of an [N, C] (or [C]) X over its max, its L1 norm or its L2 norm; float output."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx.ml", "Normalizer", since=1)
def normalizer(X: np.ndarray, *, norm: str) -> tuple[np.ndarray, ...]:
    if X.ndim not in (1, 2):
        raise ValueError(f"Normalizer: X must be [N, C] or [C], got shape {list(X.shape)}")
    rows = np.asarray(X, dtype=np.float64).reshape(-1, X.shape[-1]) if X.ndim == 2 else \
        np.asarray(X, dtype=np.float64).reshape(1, -1)
    if rows.shape[1] == 0:
        return (np.zeros(X.shape, np.float32),)
    if norm == "MAX":
        divisor = rows.max(axis=1, keepdims=True)  # the largest value, as the text writes it: not |X|
    elif norm == "L1":
        divisor = np.abs(rows).sum(axis=1, keepdims=True)
    elif norm == "L2":
        divisor = np.sqrt(np.square(rows).sum(axis=1, keepdims=True))
    else:
        raise ValueError(f"Normalizer: unknown norm {norm!r}")
    # a row whose divisor is zero is copied
    Y = np.divide(rows, divisor, out=rows.copy(), where=divisor != 0)
    return (Y.astype(np.float32).reshape(X.shape),)
