"""Comparing a backend's outputs with the reference: tolerance per dtype, ULP distance, NaN and infinities.

Floats (ml_dtypes' bfloat16, float8, float4 and float6 too) pass when |actual - expected| <= atol + rtol *
|expected| element-wise, NaN exactly where the reference has NaN and infinities equal (sign included); complex
values compare their real and imaginary parts so; integers and booleans must be equal; strings (object arrays of
Python str) must be equal exactly, and an element that is not a str (bytes, a number) is a difference.
The default tolerance of a narrow float is about one unit in its last place: results are rounded once to it, and
a backend computing in another width may land one step away.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from conformance.element_types import FLOATS, element_of, is_ml_dtype
from opset.model import OpVersion, Tolerance

DEFAULT_TOLERANCE: dict[str, Tolerance] = {
    "float16": Tolerance(rtol=1e-3, atol=1e-3),
    "bfloat16": Tolerance(rtol=1e-2, atol=1e-2),
    "float8e4m3fn": Tolerance(rtol=0.125, atol=2.0**-9), "float8e4m3fnuz": Tolerance(rtol=0.125, atol=2.0**-10),
    "float8e5m2": Tolerance(rtol=0.25, atol=2.0**-16), "float8e5m2fnuz": Tolerance(rtol=0.25, atol=2.0**-17),
    "float8e8m0": Tolerance(rtol=1.0, atol=0.0), "float4e2m1": Tolerance(rtol=0.5, atol=0.5),
    "float6e2m3": Tolerance(rtol=0.125, atol=0.125), "float6e3m2": Tolerance(rtol=0.25, atol=0.0625),
    "float": Tolerance(rtol=1e-5, atol=1e-6),
    "double": Tolerance(rtol=1e-12, atol=1e-12),
}
EXACT = Tolerance(rtol=0.0, atol=0.0)


def tolerance_for(version: OpVersion, element: str) -> Tolerance:
    """The version's tolerance for `element`, else the documented default (integers are exact)."""
    return version.tolerance.get(element) or DEFAULT_TOLERANCE.get(element, EXACT)


@dataclass(frozen=True)
class Comparison:
    ok: bool
    max_abs: float = 0.0
    max_rel: float = 0.0
    max_ulp: float = 0.0
    problem: str = ""  # what differs, when not ok


def ulp_distance(actual: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """Units in the last place between two float arrays of one dtype (as float64)."""
    bits = {2: np.int16, 4: np.int32, 8: np.int64}[actual.dtype.itemsize]
    a = actual.view(bits).astype(np.float64)
    e = expected.view(bits).astype(np.float64)
    top = float(2 ** (8 * actual.dtype.itemsize - 1))
    # map the sign-magnitude bit patterns onto one monotonic integer line
    a = np.where(a < 0, -top - a, a)
    e = np.where(e < 0, -top - e, e)
    return np.abs(a - e)


def compare_arrays(actual: np.ndarray, expected: np.ndarray, tolerance: Tolerance) -> Comparison:
    if actual.shape != expected.shape:
        return Comparison(False, problem=f"shape {list(actual.shape)} but expected {list(expected.shape)}")
    if actual.dtype != expected.dtype:
        return Comparison(False, problem=f"dtype {actual.dtype} but expected {expected.dtype}")
    if actual.dtype.kind == "O":
        return _compare_strings(actual, expected)
    if actual.size == 0:
        return Comparison(True)
    if actual.dtype.kind == "c":
        real = compare_arrays(actual.real.copy(), expected.real.copy(), tolerance)
        return real if not real.ok else compare_arrays(actual.imag.copy(), expected.imag.copy(), tolerance)
    if is_ml_dtype(actual.dtype) and element_of(actual.dtype) in FLOATS:
        return _compare_floats(actual.astype(np.float32), expected.astype(np.float32), tolerance)
    if is_ml_dtype(actual.dtype):
        return compare_arrays(actual.astype(np.int8), expected.astype(np.int8), tolerance)
    if actual.dtype.kind != "f":
        wrong = np.flatnonzero(actual != expected)
        if wrong.size:
            i = int(wrong[0])
            return Comparison(False, problem=f"{wrong.size} of {actual.size} values differ; first at flat index "
                                             f"{i}: {shown_value(actual.flat[i])} vs {shown_value(expected.flat[i])}")
        return Comparison(True)
    return _compare_floats(actual, expected, tolerance)


def _compare_strings(actual: np.ndarray, expected: np.ndarray) -> Comparison:
    from conformance.string_arrays import non_str_element

    found = non_str_element(actual)
    if found is not None:
        i, value = found
        return Comparison(False, problem=f"a string tensor holds {type(value).__name__} {value!r} at flat index {i}")
    a, e = actual.reshape(-1).tolist(), expected.reshape(-1).tolist()
    wrong = [i for i, (x, y) in enumerate(zip(a, e, strict=True)) if x != y]
    if wrong:
        i = wrong[0]
        return Comparison(False, problem=f"{len(wrong)} of {actual.size} strings differ; first at flat index {i}: "
                                         f"{a[i]!r} vs {e[i]!r}")
    return Comparison(True)


def _compare_floats(actual: np.ndarray, expected: np.ndarray, tolerance: Tolerance) -> Comparison:
    a, e = actual.astype(np.float64), expected.astype(np.float64)
    nan_a, nan_e = np.isnan(a), np.isnan(e)
    if not np.array_equal(nan_a, nan_e):
        i = int(np.flatnonzero(nan_a != nan_e)[0])
        return Comparison(False, problem=f"NaN positions differ; first at flat index {i}: {a.flat[i]} vs {e.flat[i]}")
    inf_a, inf_e = np.isinf(a), np.isinf(e)
    if not np.array_equal(inf_a, inf_e) or not np.array_equal(a[inf_e], e[inf_e]):
        i = int(np.flatnonzero((inf_a != inf_e) | (inf_e & (a != e)))[0])
        return Comparison(False, problem=f"infinities differ; first at flat index {i}: {a.flat[i]} vs {e.flat[i]}")
    finite = np.isfinite(e)
    diff = np.abs(a[finite] - e[finite])
    scale = np.abs(e)[finite]
    max_abs = float(diff.max(initial=0.0))
    rel = diff / np.where(scale > 0, scale, 1.0)
    max_rel = float(rel.max(initial=0.0))
    max_ulp = float(ulp_distance(actual[finite], expected[finite]).max(initial=0.0))
    bad = diff > tolerance.atol + tolerance.rtol * scale
    if bad.any():
        i = int(np.flatnonzero(finite)[np.flatnonzero(bad)[0]])
        return Comparison(False, max_abs, max_rel, max_ulp,
                          problem=f"{int(bad.sum())} of {actual.size} values outside rtol={tolerance.rtol} "
                                  f"atol={tolerance.atol}; first at flat index {i}: {shown_value(a.flat[i])} vs "
                                  f"{shown_value(e.flat[i])}; "
                                  f"max abs err {max_abs:.3g}, max rel err {max_rel:.3g}, max ULP {max_ulp:.0f}")
    return Comparison(True, max_abs, max_rel, max_ulp)


def shown_value(x: Any) -> str:
    """A value in a message as Python writes it (`5.0`, `-3`, `True`), not numpy's `np.float64(5.0)`; a value numpy
    cannot hand over as a Python scalar (an ml_dtypes element) as its own repr."""
    value = x.item() if isinstance(x, np.generic) else x
    return repr(value if isinstance(value, bool | int | float | complex | str | bytes) else x)


def compare_values(actual: Any, expected: Any, tolerance: Callable[[np.dtype], Tolerance]) -> Comparison:
    """`compare_arrays` through containers: a sequence element by element, an optional empty where expected
    (or its content), a map key by key; `tolerance` gives each tensor's tolerance from its dtype."""
    where, result = _compare_values(actual, expected, tolerance)
    if result.ok or not where:
        return result
    return Comparison(False, result.max_abs, result.max_rel, result.max_ulp, problem=f"{where}: {result.problem}")


def _compare_values(actual: Any, expected: Any, tolerance: Callable[[np.dtype], Tolerance]
                    ) -> tuple[str, Comparison]:
    if expected is None or actual is None:
        if expected is None and actual is None:
            return "", Comparison(True)
        return "", Comparison(False, problem="an empty optional but expected a value" if actual is None
                              else f"a value ({_kind(actual)}) but expected an empty optional")
    if isinstance(expected, list) or isinstance(actual, list):
        if not (isinstance(expected, list) and isinstance(actual, list)):
            return "", Comparison(False, problem=f"{_kind(actual)} but expected {_kind(expected)}")
        if len(actual) != len(expected):
            return "", Comparison(False, problem=f"a sequence of {len(actual)} tensors but expected {len(expected)}")
        return _worst([(f"element {i}", *_compare_values(a, e, tolerance)) for i, (a, e) in
                       enumerate(zip(actual, expected, strict=True))])
    if isinstance(expected, dict) or isinstance(actual, dict):
        if not (isinstance(expected, dict) and isinstance(actual, dict)):
            return "", Comparison(False, problem=f"{_kind(actual)} but expected {_kind(expected)}")
        if set(actual) != set(expected):
            missing = sorted(map(repr, set(expected) - set(actual)))
            extra = sorted(map(repr, set(actual) - set(expected)))
            return "", Comparison(False, problem=f"map keys differ: missing {missing[:5]}, extra {extra[:5]}")
        return _worst([(f"key {k!r}", *_compare_values(np.asarray(actual[k]), np.asarray(expected[k]), tolerance))
                       for k in expected])
    a, e = np.asarray(actual), np.asarray(expected)
    return "", compare_arrays(a, e, tolerance(e.dtype))


def _worst(parts: list[tuple[str, str, Comparison]]) -> tuple[str, Comparison]:
    """The first failing part (its place prefixed), with the largest errors over every part."""
    max_abs = max((c.max_abs for _, _, c in parts), default=0.0)
    max_rel = max((c.max_rel for _, _, c in parts), default=0.0)
    max_ulp = max((c.max_ulp for _, _, c in parts), default=0.0)
    for place, inner, c in parts:
        if not c.ok:
            return (f"{place}, {inner}" if inner else place), Comparison(False, max_abs, max_rel, max_ulp, c.problem)
    return "", Comparison(True, max_abs, max_rel, max_ulp)


def _kind(x: Any) -> str:
    if x is None:
        return "an empty optional"
    if isinstance(x, list):
        return "a sequence"
    if isinstance(x, dict):
        return "a map"
    return f"a tensor {np.asarray(x).dtype}{list(np.shape(x))}"
