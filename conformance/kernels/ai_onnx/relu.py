"""Relu: max(x, 0)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Relu", since=1, until=5)
def relu_v1(x: np.ndarray, *, consumed_inputs: list[int] | None) -> tuple[np.ndarray, ...]:
    # consumed_inputs (opset 1) is a memory-reuse hint: it never changes the result
    return relu(x)


@kernel("ai.onnx", "Relu", since=6)
def relu(x: np.ndarray) -> tuple[np.ndarray, ...]:
    return (np.maximum(x, x.dtype.type(0)),)
