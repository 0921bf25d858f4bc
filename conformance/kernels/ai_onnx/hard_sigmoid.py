"""HardSigmoid: max(0, min(1, alpha * x + beta))."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "HardSigmoid", since=1)
def hard_sigmoid(x: np.ndarray, *, alpha: float, beta: float) -> tuple[np.ndarray, ...]:
    xw = x.astype(work_dtype(x), copy=False)
    y = np.clip(alpha * xw + beta, 0, 1)
    return (y.astype(x.dtype, copy=False),)
