"""CumSum: running sums along the 0-D `axis` input (exclusive: shifted by one; reverse: from the end)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import cumulate
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "CumSum", since=11)
def cum_sum(x: np.ndarray, axis: np.ndarray, *, exclusive: int, reverse: int) -> tuple[np.ndarray, ...]:
    return (cumulate("CumSum", x, axis, exclusive, reverse),)
