"""Conversions into the element types ml_dtypes holds (Cast's rules for float8, float8e8m0, float4, float6, int4
and int2 targets), shared by Cast, CastLike and the quantizers.

- float8 (E4M3FN, E4M3FNUZ, E5M2, E5M2FNUZ): round to nearest even; with `saturate`, values beyond the largest
  finite value (infinities included) become it, NaN stays NaN; without, they become NaN or infinity as the
  format has it (ml_dtypes' own conversion, which follows Cast's second table).
- float8e8m0 (powers of two, 2^-127 ... 2^127, NaN): the exponent of x rounded by `round_mode` (up: any
  fraction rounds up; down: truncates; nearest: half a step or more rounds up); with `saturate` a result above
  2^127 (and an infinity) is 2^127, without it NaN. Zero and negative values are unspecified: they give 2^-127
  and the value of |x| respectively.
- float4e2m1, float6: round to nearest even, saturating (the formats have no infinity or NaN).
- int4, uint4, int2, uint2: floats round to the nearest integer, ties to even (onnx's int4 and int2 pages: "rounding
  to the nearest-integer (with ties to even) ... and truncating"; ml_dtypes' own conversion truncates toward zero,
  Cast's readings cast_r2 and cast_r3), then as into the numpy integers, keeping the low bits.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

from conformance.element_types import COMPUTE_AS, ML_FLOATS, ML_INTEGERS, compute_dtype, finite_range, numpy_dtype

FLOAT8 = frozenset({"float8e4m3fn", "float8e4m3fnuz", "float8e5m2", "float8e5m2fnuz"})
ROUND_MODES = ("up", "down", "nearest")


def widened(x: np.ndarray) -> np.ndarray:
    """An ml_dtypes array in the numpy type it is computed in (exact: every value fits)."""
    wide = compute_dtype(x.dtype)
    return x if wide == x.dtype else x.astype(wide)


def to_narrow(x: np.ndarray, element: str, *, saturate: bool = True, round_mode: str = "up") -> np.ndarray:
    """`x` (a numpy type) converted to the ml_dtypes type of `element` under Cast's rules (module doc)."""
    target = numpy_dtype(element)
    if element in ML_INTEGERS:
        from conformance.kernels.ai_onnx._common import convert_elements

        if x.dtype.kind == "f":
            with np.errstate(invalid="ignore"):
                x = np.rint(x)
        return np.asarray(convert_elements(x, COMPUTE_AS[element]).astype(target))
    if element not in ML_FLOATS:
        raise ValueError(f"{element} is not a type ml_dtypes adds")
    if x.dtype.kind == "b":
        x = x.astype(np.float32)
    if element == "float8e8m0":
        return _to_e8m0(x, saturate=saturate, round_mode=round_mode)
    with np.errstate(invalid="ignore", over="ignore"):
        if element in FLOAT8 and saturate:
            largest = finite_range(element)[1]
            x = np.clip(x.astype(np.float64), -largest, largest)
        return np.asarray(x.astype(np.float32).astype(target) if x.dtype != np.float32 else x.astype(target))


def _to_e8m0(x: np.ndarray, *, saturate: bool, round_mode: str) -> np.ndarray:
    if round_mode not in ROUND_MODES:
        raise ValueError(f"round_mode must be one of {', '.join(ROUND_MODES)}, got {round_mode!r}")
    bits = np.abs(np.asarray(x, dtype=np.float32)).view(np.uint32)
    exponent = (bits >> 23).astype(np.int32)
    fraction = bits & 0x7FFFFF
    nan = np.isnan(np.asarray(x, dtype=np.float32))
    infinite = np.isinf(np.asarray(x, dtype=np.float32))
    if round_mode == "up":
        exponent = exponent + (fraction > 0)
    elif round_mode == "nearest":
        half = 0x400000
        exponent = exponent + np.where(exponent > 0, fraction >= half, fraction > half)
    too_big = (exponent > 254) | infinite
    code = np.clip(exponent, 0, 254).astype(np.uint8)
    code = np.where(too_big, np.uint8(254 if saturate else 255), code)
    code = np.where(nan, np.uint8(255), code)
    return np.asarray(code.astype(np.uint8).view(ml_dtypes.float8_e8m0fnu))
