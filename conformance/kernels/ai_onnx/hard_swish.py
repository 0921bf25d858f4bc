"""HardSwish: x * max(0, min(1, x / 6 + 1 / 2)), HardSigmoid with alpha = 1/6 and beta = 0.5 times x."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "HardSwish", since=14)
def hard_swish(x: np.ndarray) -> tuple[np.ndarray, ...]:
    xw = x.astype(work_dtype(x), copy=False)
    y = xw * np.clip(xw / 6 + 0.5, 0, 1)
    return (y.astype(x.dtype, copy=False),)
