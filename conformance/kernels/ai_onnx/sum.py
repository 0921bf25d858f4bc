"""Sum: elementwise sum of a variadic list (same shapes before opset 8, numpy broadcasting from 8)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


def _sum(data: tuple[np.ndarray, ...], same_shape: bool) -> tuple[np.ndarray, ...]:
    if not data:
        raise ValueError("Sum: needs at least one input")
    if same_shape and any(d.shape != data[0].shape for d in data):
        raise ValueError(f"Sum: inputs must share one shape before opset 8, got {[d.shape for d in data]}")
    try:
        shape = np.broadcast_shapes(*(d.shape for d in data))
    except ValueError as e:
        raise ValueError(f"Sum: shapes {[d.shape for d in data]} do not broadcast") from e
    out = np.zeros(shape, dtype=data[0].dtype)
    for d in data:
        np.add(out, d, out=out)
    return (out,)


@kernel("ai.onnx", "Sum", since=1, until=5)
def sum_v1(*data: np.ndarray) -> tuple[np.ndarray, ...]:
    # opset 1 has no broadcasting: every input has the same shape
    return _sum(data, same_shape=True)


@kernel("ai.onnx", "Sum", since=6, until=7)
def sum_legacy(*data: np.ndarray) -> tuple[np.ndarray, ...]:
    return _sum(data, same_shape=True)


@kernel("ai.onnx", "Sum", since=8)
def sum_(*data: np.ndarray) -> tuple[np.ndarray, ...]:
    return _sum(data, same_shape=False)
