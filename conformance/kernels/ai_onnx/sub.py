"""Sub: elementwise difference; opset 1/6 use the legacy `broadcast`/`axis` rule, 7+ numpy broadcasting.

Integer results wrap around (two's complement), as numpy's fixed-width arithmetic does.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import broadcast_shape, legacy_broadcast
from conformance.kernels.registry import kernel


def _subtract(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, ...]:
    with np.errstate(over="ignore"):
        return (np.asarray(np.subtract(a, b), dtype=a.dtype),)


@kernel("ai.onnx", "Sub", since=1, until=6)
def sub_legacy(a: np.ndarray, b: np.ndarray, *, broadcast: int, axis: int | None) -> tuple[np.ndarray, ...]:
    return _subtract(a, legacy_broadcast("Sub", a, b, broadcast, axis))


@kernel("ai.onnx", "Sub", since=7)
def sub(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, ...]:
    broadcast_shape("Sub", a, b)
    return _subtract(a, b)
