"""ArrayFeatureExtractor: the positions Y (flattened) of X's last axis; a 1-D X is one row."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx.ml", "ArrayFeatureExtractor", since=1)
def array_feature_extractor(X: np.ndarray, Y: np.ndarray) -> tuple[np.ndarray, ...]:
    if X.ndim == 0:
        raise ValueError("ArrayFeatureExtractor: X needs at least one axis")
    indices = np.asarray(Y, dtype=np.int64).reshape(-1)
    width = X.shape[-1]
    if indices.size and (indices.min() < 0 or indices.max() >= width):
        raise ValueError(f"ArrayFeatureExtractor: every index must lie in [0, {width}), got {indices.tolist()}")
    Z = np.take(X, indices, axis=-1)
    return (Z.reshape(1, -1) if X.ndim == 1 else Z,)
