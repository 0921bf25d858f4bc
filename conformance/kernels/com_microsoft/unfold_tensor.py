"""com.microsoft UnfoldTensor: torch's Tensor.unfold; the windows of `size` every `step` along `dim`, each in a new
last axis."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("com.microsoft", "UnfoldTensor", since=1)
def unfold_tensor(x: np.ndarray, *, dim: int, size: int, step: int) -> tuple[np.ndarray, ...]:
    r = x.ndim
    if not -r <= dim < r:
        raise ValueError(f"UnfoldTensor: dim {dim} is outside [{-r}, {r - 1}]")
    d = dim + r if dim < 0 else dim
    if size < 1 or step < 1:
        raise ValueError(f"UnfoldTensor: size {size} and step {step} must be >= 1")
    if size > x.shape[d]:
        raise ValueError(f"UnfoldTensor: size {size} exceeds the length {x.shape[d]} of axis {dim}")
    count = (x.shape[d] - size) // step + 1
    starts = np.arange(count, dtype=np.int64) * step
    window = starts[:, None] + np.arange(size, dtype=np.int64)[None, :]  # [count, size]
    taken = np.take(x, window, axis=d)  # axis d becomes [count, size]
    return (np.ascontiguousarray(np.moveaxis(taken, d + 1, -1)),)
