"""NonZero: the indices of the non-zero elements of X in row-major order, as an int64 tensor of shape
[rank(X), count]. A scalar gives [0, count] (onnx: "(0, N) instead of (1, N)"): no index rows, one column
when it is non-zero. In a string tensor the empty string is the zero."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx", "NonZero", since=9)
def non_zero(X: np.ndarray) -> tuple[np.ndarray, ...]:
    if X.ndim == 0:
        return (np.zeros((0, int(bool(X.item()))), dtype=np.int64),)  # truth as np.nonzero's: "" is zero
    return (np.asarray(np.nonzero(X), dtype=np.int64).reshape(X.ndim, -1),)
