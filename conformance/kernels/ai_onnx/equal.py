"""Equal: elementwise A == B (bool result).

Opset 1 uses the legacy `broadcast`/`axis` rule, 7+ numpy broadcasting.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import broadcast_shape, legacy_broadcast
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Equal", since=1, until=6)
def equal_legacy(a: np.ndarray, b: np.ndarray, *, broadcast: int, axis: int | None) -> tuple[np.ndarray, ...]:
    return (np.asarray(np.equal(a, legacy_broadcast("Equal", a, b, broadcast, axis)), dtype=np.bool_),)


@kernel("ai.onnx", "Equal", since=7)
def equal(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, ...]:
    broadcast_shape("Equal", a, b)
    return (np.asarray(np.equal(a, b), dtype=np.bool_),)
