"""com.microsoft BiasGelu: the exact Gelu of A + B, B 1-D along A's last axis; the sum and Gelu in float64."""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft._fused import check_last_dim_bias, exact_gelu
from conformance.kernels.registry import kernel


@kernel("com.microsoft", "BiasGelu", since=1)
def bias_gelu(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, ...]:
    check_last_dim_bias("BiasGelu", a, b, "B")
    return (exact_gelu(a.astype(np.float64) + b.astype(np.float64)).astype(a.dtype),)
