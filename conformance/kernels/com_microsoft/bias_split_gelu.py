"""com.microsoft BiasSplitGelu: (X + bias) split along the last axis into halves L and R, then L * Gelu(R) with
the exact Gelu, all in float64, rounded once."""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft._fused import check_last_dim_bias, exact_gelu
from conformance.kernels.registry import kernel


@kernel("com.microsoft", "BiasSplitGelu", since=1)
def bias_split_gelu(x: np.ndarray, bias: np.ndarray) -> tuple[np.ndarray, ...]:
    if x.ndim != 3 or x.shape[-1] % 2:
        raise ValueError(f"BiasSplitGelu: X must be 3-D with an even last dim, got {x.shape}")
    check_last_dim_bias("BiasSplitGelu", x, bias)
    v = x.astype(np.float64) + bias.astype(np.float64)
    half = x.shape[-1] // 2
    return ((v[..., :half] * exact_gelu(v[..., half:])).astype(x.dtype),)
