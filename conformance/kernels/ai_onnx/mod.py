"""Mod: elementwise remainder. fmod=0 floors the quotient (the result takes B's sign, Python's %), fmod=1
truncates it (the result takes A's sign, C's fmod). An integer divisor of 0 is rejected; a float one gives NaN.

Before version 28 a float T requires fmod=1 (the spec's text; onnxruntime refuses fmod=0 there).
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import broadcast_shape, no_integer_zero
from conformance.kernels.registry import kernel


def _remainder(a: np.ndarray, b: np.ndarray, fmod: int) -> tuple[np.ndarray, ...]:
    if fmod not in (0, 1):
        raise ValueError(f"Mod: fmod must be 0 or 1, got {fmod}")
    broadcast_shape("Mod", a, b)
    no_integer_zero("Mod", b)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        result = np.fmod(a, b) if fmod == 1 else np.remainder(a, b)
    return (np.asarray(result, dtype=a.dtype),)


@kernel("ai.onnx", "Mod", since=10, until=13)
def mod_float_needs_fmod(a: np.ndarray, b: np.ndarray, *, fmod: int) -> tuple[np.ndarray, ...]:
    if a.dtype.kind == "f" and fmod == 0:
        raise ValueError(f"Mod: a {a.dtype} T needs fmod=1 before version 28")
    return _remainder(a, b, fmod)


@kernel("ai.onnx", "Mod", since=28)
def mod(a: np.ndarray, b: np.ndarray, *, fmod: int) -> tuple[np.ndarray, ...]:
    return _remainder(a, b, fmod)
