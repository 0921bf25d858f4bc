"""Or: elementwise logical or of two bool tensors.

Opset 1 uses the legacy `broadcast`/`axis` rule, 7+ numpy broadcasting.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import broadcast_shape, legacy_broadcast
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Or", since=1, until=6)
def or_legacy(a: np.ndarray, b: np.ndarray, *, broadcast: int, axis: int | None) -> tuple[np.ndarray, ...]:
    return (np.asarray(np.logical_or(a, legacy_broadcast("Or", a, b, broadcast, axis)), dtype=np.bool_),)


@kernel("ai.onnx", "Or", since=7)
def or_(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, ...]:
    broadcast_shape("Or", a, b)
    return (np.asarray(np.logical_or(a, b), dtype=np.bool_),)
