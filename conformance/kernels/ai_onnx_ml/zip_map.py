"""ZipMap: one map per row of an [N, C] (or [C]) X, taking label j to X[n, j] (a label listed twice keeps its
last column)."""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance.kernels.ai_onnx_ml._lookup import as_text
from conformance.kernels.registry import kernel


@kernel("ai.onnx.ml", "ZipMap", since=1)
def zip_map(X: np.ndarray, *, classlabels_int64s: list[int] | None,
            classlabels_strings: list[str] | None) -> tuple[Any, ...]:
    given = [c for c in (classlabels_strings, classlabels_int64s) if c]
    if len(given) != 1:
        raise ValueError("ZipMap: exactly one of classlabels_strings and classlabels_int64s must be given")
    if X.ndim not in (1, 2):
        raise ValueError(f"ZipMap: X must be [N, C] or [C], got shape {list(X.shape)}")
    rows = np.asarray(X, dtype=np.float32).reshape(-1, X.shape[-1])
    labels = [str(k) for k in as_text(given[0])] if classlabels_strings else [int(k) for k in given[0]]
    if rows.shape[1] != len(labels):
        raise ValueError(f"ZipMap: {rows.shape[1]} columns for {len(labels)} labels")
    # dict() keeps the last column of a repeated label, as onnxruntime's map assignment does
    return ([dict(zip(labels, row, strict=True)) for row in rows],)
