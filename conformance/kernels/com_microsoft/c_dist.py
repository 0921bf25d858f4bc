"""com.microsoft CDist: distances between the rows of A (M x N) and of B (K x N), squared euclidean or euclidean
(the two metrics onnxruntime's kernel implements)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("com.microsoft", "CDist", since=1)
def c_dist(a: np.ndarray, b: np.ndarray, *, metric: str) -> tuple[np.ndarray, ...]:
    if a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[1] or a.shape[1] < 1:
        raise ValueError(f"CDist: A and B must be 2-D with one non-zero feature count, got {a.shape} and {b.shape}")
    if metric not in ("sqeuclidean", "euclidean"):
        raise ValueError(f"CDist: metric {metric!r} is not implemented (sqeuclidean, euclidean)")
    diff = a.astype(np.float64)[:, None, :] - b.astype(np.float64)[None, :, :]
    c = np.einsum("ijk,ijk->ij", diff, diff)
    if metric == "euclidean":
        c = np.sqrt(c)
    return (c.astype(a.dtype),)
