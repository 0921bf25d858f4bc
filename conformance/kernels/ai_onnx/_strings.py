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

from conformance.kernels.ai_onnx._common import convert_elements

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


def _parse_integer(op: str, text: str, dtype: np.dtype) -> int:
    body = text.strip(_WHITESPACE)
    if not INTEGER_LITERAL.fullmatch(body):
        raise ValueError(f"{op}: {text!r} is no integer literal; its conversion to {dtype} is undefined")
    value = int(body)
    if dtype == np.bool_:
        return int(value != 0)
    info = np.iinfo(dtype)
    if not info.min <= value <= info.max:
        raise ValueError(f"{op}: {text!r} lies outside {dtype}; its conversion is undefined")
    return value


def from_strings(op: str, x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """An object array of str read as numbers of `dtype`, as described above."""
    texts = x.reshape(-1).tolist()
    stray = next((t for t in texts if not isinstance(t, str)), None)
    if stray is not None:
        raise TypeError(f"{op}: a string tensor holds {type(stray).__name__} {stray!r:.60}, not str")
    if dtype.kind == "f":
        values = np.array([_parse_float(op, t) for t in texts], dtype=np.float64)
        with np.errstate(over="ignore"):
            return values.astype(dtype).reshape(x.shape)
    if dtype.kind in "iub":
        return np.array([_parse_integer(op, t, dtype) for t in texts], dtype=dtype).reshape(x.shape)
    raise ValueError(f"{op}: strings do not convert to {dtype}")


def cast_elements(op: str, x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Cast's conversion of `x` to `dtype`: through strings where either side is a string tensor, else
    `convert_elements` (numbers to numbers)."""
    if dtype.kind == "O":
        return to_strings(x)
    if x.dtype.kind == "O":
        return from_strings(op, x, dtype)
    return convert_elements(x, dtype)
