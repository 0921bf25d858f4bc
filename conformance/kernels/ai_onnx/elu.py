"""Elu: x for x >= 0, alpha * (exp(x) - 1) otherwise."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Elu", since=1)
def elu(x: np.ndarray, *, alpha: float) -> tuple[np.ndarray, ...]:
    xw = x.astype(work_dtype(x), copy=False)
    y = np.where(xw < 0, alpha * np.expm1(np.minimum(xw, 0)), xw)
    return (y.astype(x.dtype, copy=False),)
