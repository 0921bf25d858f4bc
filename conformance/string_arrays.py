"""String tensors as the project holds them: numpy `object` arrays of Python `str`.

onnx's numpy_helper and onnxruntime give and take exactly that; onnx.reference and numpy's own string functions
may give fixed-width `<U` arrays or `bytes` elements instead. `as_strings` turns what arrives into the one form
where values enter (backend outputs, kernel outputs, repro bundles), so comparisons see `str` on both sides.
(Repro bundles store string tensors as TensorProtos, conformance.value_protos: never pickled.)
"""

from __future__ import annotations

from typing import Any

import numpy as np

STRING_KINDS = "OUS"  # object, fixed-width unicode, fixed-width bytes


def is_string_array(x: Any) -> bool:
    """Whether `x` is an array a string tensor may arrive as (object, `<U` or `|S`)."""
    return isinstance(x, np.ndarray) and x.dtype.kind in STRING_KINDS


def _as_str(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, bytes | np.bytes_):
        return bytes(value).decode("utf-8")
    raise TypeError(f"a string tensor holds {type(value).__name__} {value!r}, not str")


def as_strings(x: Any) -> np.ndarray:
    """`x` as an object array of Python str (bytes decoded as UTF-8); TypeError for other elements."""
    array = np.asarray(x)
    if array.dtype.kind not in STRING_KINDS:
        raise TypeError(f"{array.dtype} is no string dtype")
    out = np.empty(array.shape, dtype=object)
    flat = out.reshape(-1)
    for i, value in enumerate(array.reshape(-1).tolist()):
        flat[i] = _as_str(value)
    return out


def normalized(x: Any) -> Any:
    """A runtime value with string tensors in the one form; any other value unchanged."""
    if isinstance(x, np.ndarray) and x.dtype.kind in STRING_KINDS:
        return as_strings(x)
    return x


def normalized_value(x: Any) -> Any:
    """`normalized` through containers too: the tensors of a sequence (a list) normalised one by one."""
    if isinstance(x, list):
        return [normalized_value(e) for e in x]
    return normalized(x)


def non_str_element(x: np.ndarray) -> tuple[int, Any] | None:
    """The first (flat index, element) of an object array that is not a Python str, else None."""
    for i, value in enumerate(x.reshape(-1).tolist()):
        if not isinstance(value, str):
            return i, value
    return None
