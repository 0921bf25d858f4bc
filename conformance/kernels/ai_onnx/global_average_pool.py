"""GlobalAveragePool: mean over every spatial axis, keeping them as size 1."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "GlobalAveragePool", since=1)
def global_average_pool(x: np.ndarray) -> tuple[np.ndarray, ...]:
    if x.ndim < 3:
        raise ValueError(f"GlobalAveragePool: input must be N x C x spatial..., got shape {x.shape}")
    y = np.mean(x, axis=tuple(range(2, x.ndim)), keepdims=True, dtype=work_dtype(x))
    return (y.astype(x.dtype, copy=False),)
