"""And: elementwise logical and of two bool tensors.

Opset 1 uses the legacy `broadcast`/`axis` rule, 7+ numpy broadcasting.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import broadcast_shape, legacy_broadcast
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "And", since=1, until=6)
def and_legacy(a: np.ndarray, b: np.ndarray, *, broadcast: int, axis: int | None) -> tuple[np.ndarray, ...]:
    return (np.asarray(np.logical_and(a, legacy_broadcast("And", a, b, broadcast, axis)), dtype=np.bool_),)


@kernel("ai.onnx", "And", since=7)
def and_(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, ...]:
    broadcast_shape("And", a, b)
    return (np.asarray(np.logical_and(a, b), dtype=np.bool_),)
