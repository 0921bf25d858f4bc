"""Div: elementwise quotient; opset 1/6 use the legacy `broadcast`/`axis` rule, 7+ numpy broadcasting.

Integer division truncates toward zero (C's rule, as the spec says), not toward minus infinity as
numpy's `//` does; an integer divisor of 0 is rejected (no defined result). Float division follows
IEEE 754 (x / 0 is an infinity or NaN).
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import broadcast_shape, legacy_broadcast, no_integer_zero
from conformance.kernels.registry import kernel


def _divide(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, ...]:
    if a.dtype.kind not in "iu":
        with np.errstate(divide="ignore", invalid="ignore"):
            return (np.asarray(np.divide(a, b), dtype=a.dtype),)
    no_integer_zero("Div", b)
    with np.errstate(over="ignore"):  # MIN / -1 wraps to MIN, as two's complement does
        floored = np.floor_divide(a, b)
        # floor and truncation differ where the quotient is inexact and negative: step back toward zero
        inexact_negative = (np.remainder(a, b) != 0) & ((a < 0) != (b < 0))
        return (np.asarray(floored + inexact_negative.astype(floored.dtype), dtype=a.dtype),)


@kernel("ai.onnx", "Div", since=1, until=6)
def div_legacy(a: np.ndarray, b: np.ndarray, *, broadcast: int, axis: int | None) -> tuple[np.ndarray, ...]:
    return _divide(a, legacy_broadcast("Div", a, b, broadcast, axis))


@kernel("ai.onnx", "Div", since=7)
def div(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, ...]:
    broadcast_shape("Div", a, b)
    return _divide(a, b)
