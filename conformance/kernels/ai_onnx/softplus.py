"""Softplus: ln(exp(x) + 1)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Softplus", since=1)
def softplus(x: np.ndarray) -> tuple[np.ndarray, ...]:
    xw = x.astype(work_dtype(x), copy=False)
    return (np.logaddexp(0, xw).astype(x.dtype, copy=False),)  # ln(e^0 + e^x), no overflow for large x
