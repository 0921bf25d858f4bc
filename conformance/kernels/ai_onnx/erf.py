"""Erf: the Gauss error function 2/sqrt(pi) * integral of exp(-t**2) from 0 to x, elementwise.

Floats: computed in double by the everywhere-positive series
    erf(x) = 2/sqrt(pi) * exp(-x**2) * sum_n x * (2 x**2)**n / (1 * 3 * ... * (2n + 1)),
whose terms never cancel, so the sum keeps double precision for every |x| < 6; from 6 on erf(x) rounds to
+-1 in double. Then rounded to the input's type.

Integers: onnx's text does not say how the real value in (-1, 1) becomes an integer; the registry takes
onnx.reference's reading: the float32 value truncated toward zero, which is what Cast(Erf(Cast(x, float)), T)
gives. That is 0 for |x| <= 3 and sign(x) for |x| >= 4 (erf(4) rounds to 1.0 in float32).
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel

SATURATED = 6.0  # |x| from which erf(x) is +-1 in double (erfc(6) ~ 2.2e-17 is below half an ulp of 1)
MAX_TERMS = 200  # the series needs about 2 x**2 + 40 terms: < 120 for |x| < 6


def erf_double(x: np.ndarray) -> np.ndarray:
    """erf of a float64 array, vectorised (the loop runs over series terms, not elements)."""
    inside = np.abs(x) < SATURATED  # False for NaN and infinities too
    z = np.where(inside, x, 0.0)
    z2 = z * z
    term = z.copy()
    total = z.copy()
    for n in range(1, MAX_TERMS):
        term *= 2.0 * z2 / (2 * n + 1)
        total += term
        if not np.any(np.abs(term) > 1e-17 * np.abs(total)):
            break
    series = 2.0 / np.sqrt(np.pi) * np.exp(-z2) * total
    return np.asarray(np.where(inside, series, np.sign(x)))  # sign keeps NaN as NaN


@kernel("ai.onnx", "Erf", since=9)
def erf(x: np.ndarray) -> tuple[np.ndarray, ...]:
    y = erf_double(np.asarray(x, dtype=np.float64))
    if x.dtype.kind != "f":
        y = y.astype(np.float32)  # integers: the float32 value, truncated toward zero below
    return (np.asarray(y).astype(x.dtype),)
