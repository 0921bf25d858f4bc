"""LeakyRelu: x for x >= 0, alpha * x otherwise."""

from __future__ import annotations

import numpy as np

from conformance.kernels.onnx._common import work_dtype
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "LeakyRelu", since=1)
def leaky_relu(x: np.ndarray, *, alpha: float = 0.01,
               consumed_inputs: list[int] | None = None) -> tuple[np.ndarray, ...]:
    xw = x.astype(work_dtype(x), copy=False)
    y = np.where(xw < 0, xw * np.asarray(alpha, xw.dtype), xw)
    return (y.astype(x.dtype, copy=False),)
