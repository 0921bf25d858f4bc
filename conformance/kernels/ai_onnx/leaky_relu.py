"""LeakyRelu: x for x >= 0, alpha * x otherwise."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "LeakyRelu", since=1)
def leaky_relu(x: np.ndarray, *, alpha: float) -> tuple[np.ndarray, ...]:
    xw = x.astype(work_dtype(x), copy=False)
    y = np.where(xw < 0, xw * np.asarray(alpha, xw.dtype), xw)
    return (y.astype(x.dtype, copy=False),)
