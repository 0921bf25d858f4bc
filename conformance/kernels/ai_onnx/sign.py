"""Sign: -1, 0 or 1 in the input's type (unsigned integers give 0 or 1); NaN stays NaN, -0 gives 0."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Sign", since=9)
def sign(x: np.ndarray) -> tuple[np.ndarray, ...]:
    return (np.asarray(np.sign(x)).astype(x.dtype, copy=False),)
