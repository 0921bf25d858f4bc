"""Pow: X ** Y elementwise; opset 1 uses the legacy `broadcast`/`axis` rule, 7+ numpy broadcasting, 12+ lets
the exponent's type T1 differ from the base's T (which may be an integer type).

Float T: the double-precision power rounded to T. Integer T (the registry's reading, see Pow-12's doc): the
exact power truncated toward zero and wrapped to T's width. An integer exponent is raised exactly (square
and multiply in 64-bit wrapping arithmetic, a negative one gives 1, -1 or 0); a float exponent goes through
the double-precision power. Results with no integer value (0 to a negative power, a negative base to a
fractional power) are rejected.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import broadcast_shape, legacy_broadcast
from conformance.kernels.registry import kernel


def _float_power(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):  # 0 ** -1 is inf and (-8) ** 0.5 NaN, as IEEE pow gives
        return np.power(x.astype(np.float64), y.astype(np.float64))


def _integer_power(x: np.ndarray, y: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """x ** y for integer x and y, wrapped to 64 bits (the caller narrows it to x's type)."""
    negative = np.broadcast_to(y < 0, shape)
    base = np.broadcast_to(x.astype(np.int64).view(np.uint64), shape)
    exponent = np.broadcast_to(np.where(y < 0, 0, y).astype(np.uint64), shape)
    result = np.ones(shape, dtype=np.uint64)
    while np.any(exponent):  # one pass per bit of the largest exponent: at most 64
        odd = (exponent & np.uint64(1)).astype(bool)
        result = np.where(odd, result * base, result)  # uint64 products wrap modulo 2**64
        base = base * base
        exponent = exponent >> np.uint64(1)
    signed = result.view(np.int64)
    if not np.any(negative):
        return signed
    xb = np.broadcast_to(x, shape)
    if np.any(negative & (xb == 0)):
        raise ValueError("Pow: 0 to a negative integer power has no integer value")
    odd_exponent = np.broadcast_to(y % 2 != 0, shape)
    # 1 ** -n = 1, (-1) ** -n = -1 for odd n else 1, and |x| > 1 gives a fraction that truncates to 0
    fraction = np.where(xb == 1, 1, np.where(xb == -1, np.where(odd_exponent, -1, 1), 0)).astype(np.int64)
    return np.where(negative, fraction, signed)


def _pow(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, ...]:
    shape = broadcast_shape("Pow", x, y)
    if x.dtype.kind == "f":
        return (np.asarray(_float_power(x, y), dtype=x.dtype),)
    if y.dtype.kind in "iu":
        return (np.asarray(_integer_power(x, y, shape), dtype=x.dtype),)  # int64 -> int32 keeps the low bits
    power = np.trunc(_float_power(x, y))
    if not np.all(np.isfinite(power)):
        raise ValueError("Pow: an integer base raised to this float exponent has no integer value "
                         "(0 to a negative power, or a negative base to a fractional power)")
    if np.any(np.abs(power) >= 2.0**63):
        raise ValueError("Pow: the integer power exceeds 64 bits")
    return (np.asarray(power.astype(np.int64), dtype=x.dtype),)


@kernel("ai.onnx", "Pow", since=1, until=1)
def pow_legacy(x: np.ndarray, y: np.ndarray, *, broadcast: int, axis: int | None) -> tuple[np.ndarray, ...]:
    return _pow(x, legacy_broadcast("Pow", x, y, broadcast, axis))


@kernel("ai.onnx", "Pow", since=7)
def pow_(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, ...]:
    return _pow(x, y)
