"""FeatureVectorizer: the inputs' rows side by side, input i cut or zero-padded to inputdimensions[i] columns;
a 1-D input is one row; float output."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx.ml", "FeatureVectorizer", since=1)
def feature_vectorizer(*X: np.ndarray, inputdimensions: list[int] | None) -> tuple[np.ndarray, ...]:
    if inputdimensions is None or len(inputdimensions) != len(X):
        raise ValueError(f"FeatureVectorizer: inputdimensions must give one width per input ({len(X)}), got "
                         f"{inputdimensions}")
    if any(x.ndim not in (1, 2) for x in X):
        raise ValueError(f"FeatureVectorizer: every input must be [N, C] or [C], got {[list(x.shape) for x in X]}")
    rows = [x.reshape(1, -1) if x.ndim == 1 else x for x in X]
    count = rows[0].shape[0]
    if any(r.shape[0] != count for r in rows):
        raise ValueError(f"FeatureVectorizer: the inputs have different row counts {[r.shape[0] for r in rows]}")
    Y = np.zeros((count, sum(inputdimensions)), dtype=np.float32)
    start = 0
    for r, width in zip(rows, inputdimensions, strict=True):
        kept = min(width, r.shape[1])
        Y[:, start:start + kept] = r[:, :kept]
        start += width
    return (Y,)
