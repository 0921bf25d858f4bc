"""Abs: elementwise absolute value."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Abs", since=1, until=5)
def abs_v1(x: np.ndarray, *, consumed_inputs: list[int] | None) -> tuple[np.ndarray, ...]:
    # consumed_inputs (opset 1) is a memory-reuse hint: it never changes the result
    return abs_(x)


@kernel("ai.onnx", "Abs", since=6)
def abs_(x: np.ndarray) -> tuple[np.ndarray, ...]:
    return (np.abs(x),)
