"""Abs: elementwise absolute value."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Abs", since=1)
def abs_(x: np.ndarray) -> tuple[np.ndarray, ...]:
    return (np.abs(x),)
