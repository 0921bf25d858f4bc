"""com.microsoft QuickGelu: x * sigmoid(alpha * x), in the work dtype, rounded once."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import swish_of, work_dtype
from conformance.kernels.registry import kernel


@kernel("com.microsoft", "QuickGelu", since=1)
def quick_gelu(x: np.ndarray, *, alpha: float) -> tuple[np.ndarray, ...]:
    with np.errstate(over="ignore"):
        y = swish_of(x.astype(work_dtype(x)), alpha)
    return (y.astype(x.dtype),)
