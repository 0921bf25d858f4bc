"""Not: elementwise logical negation of a bool tensor."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Not", since=1)
def not_(x: np.ndarray) -> tuple[np.ndarray, ...]:
    return (np.asarray(np.logical_not(x)),)
