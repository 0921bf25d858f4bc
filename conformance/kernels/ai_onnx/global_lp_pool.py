"""GlobalLpPool (1, 2, 22): (sum of |x|^p over every spatial axis)^(1/p), keeping the axes as size 1.

p is a float at version 1 and an int from version 2. Half precision is computed in float32.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx.lp_pool import lp_norm_power, lp_norm_root
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "GlobalLpPool", since=1)
def global_lp_pool(x: np.ndarray, *, p: float) -> tuple[np.ndarray, ...]:
    if x.ndim < 3:
        raise ValueError(f"GlobalLpPool: input must be N x C x spatial..., got shape {x.shape}")
    if not p > 0:
        raise ValueError(f"GlobalLpPool: p must be positive, got {p}")
    total = np.sum(lp_norm_power(x, p), axis=tuple(range(2, x.ndim)), keepdims=True)
    return (lp_norm_root(total, p).astype(x.dtype, copy=False),)
