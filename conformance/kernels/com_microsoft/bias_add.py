"""com.microsoft BiasAdd: X + bias + skip for X and skip of shape (N, S, C), bias of shape (C); the sums in the
work dtype, rounded once."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype
from conformance.kernels.com_microsoft._fused import check_last_dim_bias
from conformance.kernels.registry import kernel


@kernel("com.microsoft", "BiasAdd", since=1)
def bias_add(x: np.ndarray, bias: np.ndarray, skip: np.ndarray) -> tuple[np.ndarray, ...]:
    if x.ndim != 3 or skip.shape != x.shape:
        raise ValueError(f"BiasAdd: X must be 3-D and skip of its shape, got {x.shape} and {skip.shape}")
    check_last_dim_bias("BiasAdd", x, bias)
    wt = work_dtype(x)
    return ((x.astype(wt) + bias.astype(wt) + skip.astype(wt)).astype(x.dtype),)
