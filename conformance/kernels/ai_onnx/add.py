"""Add: elementwise sum; opset 1/6 use the legacy `broadcast`/`axis` rule, 7+ numpy broadcasting."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import legacy_broadcast
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Add", since=1, until=6)
def add_legacy(a: np.ndarray, b: np.ndarray, *, broadcast: int, axis: int | None) -> tuple[np.ndarray, ...]:
    return (np.add(a, legacy_broadcast("Add", a, b, broadcast, axis)).astype(a.dtype, copy=False),)


@kernel("ai.onnx", "Add", since=7)
def add(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, ...]:
    try:
        return (np.add(a, b).astype(a.dtype, copy=False),)
    except ValueError as e:
        raise ValueError(f"Add: shapes {a.shape} and {b.shape} do not broadcast") from e
