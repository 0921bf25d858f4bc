"""IsNaN: true where the element is NaN."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx", "IsNaN", since=9)
def is_nan(x: np.ndarray) -> tuple[np.ndarray, ...]:
    return (np.asarray(np.isnan(x)),)
