"""GlobalMaxPool: max over every spatial axis, keeping them as size 1."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx", "GlobalMaxPool", since=1)
def global_max_pool(x: np.ndarray) -> tuple[np.ndarray, ...]:
    if x.ndim < 3:
        raise ValueError(f"GlobalMaxPool: input must be N x C x spatial..., got shape {x.shape}")
    return (np.max(x, axis=tuple(range(2, x.ndim)), keepdims=True),)
