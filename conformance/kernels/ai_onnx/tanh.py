"""Tanh: elementwise hyperbolic tangent."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Tanh", since=1, until=5)
def tanh_v1(x: np.ndarray, *, consumed_inputs: list[int] | None) -> tuple[np.ndarray, ...]:
    # consumed_inputs (opset 1) is a memory-reuse hint: it never changes the result
    return tanh(x)


@kernel("ai.onnx", "Tanh", since=6)
def tanh(x: np.ndarray) -> tuple[np.ndarray, ...]:
    return (np.tanh(x),)
