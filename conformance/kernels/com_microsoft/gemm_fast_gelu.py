"""com.microsoft GemmFastGelu: FastGelu(X @ W + bias), W 2-D, bias 1-D of W's columns; the product and FastGelu
in the work dtype, rounded once."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype
from conformance.kernels.com_microsoft.fast_gelu import fast_gelu
from conformance.kernels.registry import kernel


@kernel("com.microsoft", "GemmFastGelu", since=1)
def gemm_fast_gelu(x: np.ndarray, w: np.ndarray, bias: np.ndarray | None) -> tuple[np.ndarray, ...]:
    if x.ndim < 1 or w.ndim != 2 or x.shape[-1] != w.shape[0]:
        raise ValueError(f"GemmFastGelu: X {x.shape} must end in W's rows, W 2-D, got {w.shape}")
    wt = work_dtype(x)
    y = np.matmul(x.astype(wt), w.astype(wt))
    (out,) = fast_gelu(y, None if bias is None else bias.astype(wt))
    return (out.astype(x.dtype),)
