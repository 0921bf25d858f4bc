"""com.microsoft SampleOp: onnxruntime's sample ("echo") contrib op; Y is a copy of X."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("com.microsoft", "SampleOp", since=1)
def sample_op(x: np.ndarray) -> tuple[np.ndarray, ...]:
    return (x.copy(),)
