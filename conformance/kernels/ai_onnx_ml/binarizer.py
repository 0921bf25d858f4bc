"""Binarizer: 1 where X > threshold, else 0 (NaN included), in X's type."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx.ml", "Binarizer", since=1)
def binarizer(X: np.ndarray, *, threshold: float) -> tuple[np.ndarray, ...]:
    # an integer X compares exactly with the float threshold (numpy compares in double, not in X's type)
    return (np.greater(X, threshold).astype(X.dtype),)
