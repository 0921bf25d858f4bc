"""Softsign: x / (1 + |x|)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Softsign", since=1)
def softsign(x: np.ndarray) -> tuple[np.ndarray, ...]:
    xw = x.astype(work_dtype(x), copy=False)
    return ((xw / (1 + np.abs(xw))).astype(x.dtype, copy=False),)
