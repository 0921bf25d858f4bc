"""Cast's conversions between string tensors and numbers (shared by Cast and CastLike; not kernels themselves).

Numbers to strings (the registry's reading, onnxruntime's): a float of any width is written with up to 8
significant digits, as C's "%.8g" writes it (the text's example "314.15926"; no trailing ".0", an exponent from
1e8 and below 1e-4), infinities as "INF" and "-INF" and NaN as "NaN" (the literals the text reserves); an integer
in decimal; a bool as "1" or "0" (as it casts to numbers).

Strings to numbers: a float type reads a plain or scientific decimal literal ("3.14", "-1E8", ".5", "5.") or,
whatever the case, INF, INFINITY or NaN with an optional sign, rounded to the nearest value of the type (infinity
past its range); an integer type reads a decimal integer literal that the type holds; bool reads a decimal integer
literal, zero false and anything else true (as an integer casts to bool). Surrounding ASCII whitespace is ignored.
Every other string (words, hexadecimal, "2.718" for an integer type, a value out of the integer's range) is a
conversion the text leaves undefined: ValueError.
"""

from __future__ import annotations

import re

import numpy as np

from conformance.element_types import FLOATS, ML_FLOATS, ML_INTEGERS, integer_range, numpy_dtype

_WHITESPACE = " \t\n\r\f\v"
FLOAT_LITERAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", re.ASCII)
SPECIAL_LITERAL = re.compile(r"([+-]?)(inf|infinity|nan)", re.ASCII | re.IGNORECASE)
INTEGER_LITERAL = re.compile(r"[+-]?[0-9]+", re.ASCII)


def to_strings(x: np.ndarray) -> np.ndarray:
    """Numbers (or strings) as an object array of their strings, as described above."""
    if x.dtype.kind == "O":
        return x.copy()
    if x.dtype == np.bool_:
        text = np.where(x, "1", "0")
    elif x.dtype.kind in "iu":
        text = np.array([str(v) for v in x.reshape(-1).tolist()], dtype=object).reshape(x.shape)
    else:
        wide = x.astype(np.float64)
        finite = np.isfinite(wide)
        text = np.char.mod("%.8g", np.where(finite, wide, 0.0))
        text = np.where(np.isnan(wide), "NaN", np.where(wide == np.inf, "INF", np.where(wide == -np.inf, "-INF", text)))
    return np.asarray(text, dtype=object).reshape(x.shape)


def _parse_float(op: str, text: str) -> float:
    body = text.strip(_WHITESPACE)
    if FLOAT_LITERAL.fullmatch(body):
        return float(body)
    special = SPECIAL_LITERAL.fullmatch(body)
    if special is None:
        raise ValueError(f"{op}: {text!r} is no numeric literal; its conversion is undefined")
    sign = -1.0 if special.group(1) == "-" else 1.0
    return float("nan") if special.group(2).lower() == "nan" else sign * float("inf")


def _parse_integer(op: str, text: str, element: str) -> int:
    body = text.strip(_WHITESPACE)
    if not INTEGER_LITERAL.fullmatch(body):
        raise ValueError(f"{op}: {text!r} is no integer literal; its conversion to {element} is undefined")
    value = int(body)
    if element == "bool":
        return int(value != 0)
    low, high = integer_range(element)
    if not low <= value <= high:
        raise ValueError(f"{op}: {text!r} lies outside {element}; its conversion is undefined")
    return value


def from_strings(op: str, x: np.ndarray, element: str) -> np.ndarray:
    """An object array of str read as numbers of the ONNX element type `element`, as described above, in a numpy
    type that converts to `element` exactly (float64 for ml_dtypes' floats, int64 for its integers)."""
    texts = x.reshape(-1).tolist()
    stray = next((t for t in texts if not isinstance(t, str)), None)
    if stray is not None:
        raise TypeError(f"{op}: a string tensor holds {type(stray).__name__} {stray!r:.60}, not str")
    if element in FLOATS:
        values = np.array([_parse_float(op, t) for t in texts], dtype=np.float64).reshape(x.shape)
        if element in ML_FLOATS:
            return values
        with np.errstate(over="ignore"):
            return values.astype(numpy_dtype(element))
    if element == "bool" or element in ML_INTEGERS or numpy_dtype(element).kind in "iu":
        wide = np.dtype(np.int64) if element in ML_INTEGERS else numpy_dtype(element)
        return np.array([_parse_integer(op, t, element) for t in texts], dtype=wide).reshape(x.shape)
    raise ValueError(f"{op}: strings do not convert to {element}")
