"""Xor: elementwise logical exclusive or of two bool tensors.

Opset 1 uses the legacy `broadcast`/`axis` rule, 7+ numpy broadcasting.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import broadcast_shape, legacy_broadcast
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Xor", since=1, until=6)
def xor_legacy(a: np.ndarray, b: np.ndarray, *, broadcast: int, axis: int | None) -> tuple[np.ndarray, ...]:
    return (np.asarray(np.logical_xor(a, legacy_broadcast("Xor", a, b, broadcast, axis)), dtype=np.bool_),)


@kernel("ai.onnx", "Xor", since=7)
def xor(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, ...]:
    broadcast_shape("Xor", a, b)
    return (np.asarray(np.logical_xor(a, b), dtype=np.bool_),)
