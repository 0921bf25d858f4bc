"""Runtime values beyond tensors, as every backend, kernel and check sees them.

A tensor is a numpy array; a sequence a Python list of values; an optional None (empty) or its value; a map a
Python dict (int or str keys; values numpy scalars or arrays, or Python numbers as onnx.reference gives them).
This module says what such a value's shape, size and type are and describes one in a line (repro bundles store
values as onnx protos: conformance.value_protos).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance.element_types import element_of
from opset.cells import cell_name
from opset.dtypes import is_container  # of a type text
from opset.infer import UNKNOWN_SHAPE

Value = Any  # np.ndarray | list[Value] | dict[int | str, Any] | None


def as_value(x: Any) -> Value:
    """A backend's or kernel's answer as a runtime value: lists, dicts and None stay; anything else becomes an
    array (a numpy scalar, a Python number)."""
    if x is None or isinstance(x, dict):
        return x
    if isinstance(x, list | tuple) and not isinstance(x, np.ndarray):
        return [as_value(e) for e in x]
    return np.asarray(x)


def shape_of(x: Value) -> Any:
    """What a formula sees of a value: a tensor's shape, a sequence's list of element shapes, None for an empty
    optional; a map (and a sequence holding one) has none (UNKNOWN_SHAPE)."""
    if x is None:
        return None
    if isinstance(x, dict):
        return UNKNOWN_SHAPE
    if isinstance(x, list):
        shapes = [shape_of(e) for e in x]
        return UNKNOWN_SHAPE if any(s is UNKNOWN_SHAPE or s is None for s in shapes) else shapes
    return [int(d) for d in np.shape(x)]


def value_size(x: Value) -> int:
    """How many numbers a value holds (a map counts its entries)."""
    if x is None:
        return 0
    if isinstance(x, dict):
        return len(x)
    if isinstance(x, list):
        return sum(value_size(e) for e in x)
    return int(np.size(x))


def value_type(x: Value) -> str | None:
    """The type a value shows (`tensor(float)`, `seq(tensor(int64))`, `map(int64,tensor(float))`); None where it
    cannot tell: an empty optional, an empty sequence's element type (`seq(?)`), an empty map."""
    if x is None:
        return None
    if isinstance(x, list):
        inner = value_type(x[0]) if x else None
        return f"seq({inner or '?'})"
    if isinstance(x, dict):
        if not x:
            return None
        key, item = next(iter(x.items()))
        return f"map({'string' if isinstance(key, str) else 'int64'},{value_type(np.asarray(item))})"
    array = np.asarray(x)
    element = "string" if array.dtype.kind in "OU" else element_of(array.dtype)
    return f"tensor({element or array.dtype.name})"


def type_fits(x: Value, type_text: str) -> bool:
    """Does the value fit the type (an empty optional any optional type, an empty sequence any sequence)?"""
    shown = value_type(x)
    if x is None:
        return type_text.startswith("optional(")
    if type_text.startswith("optional(") and not (shown or "").startswith("optional("):
        type_text = type_text[len("optional("):-1]  # a present optional is its content
    if shown is None:
        return type_text.startswith("map(")
    return _matches(shown, type_text.replace(" ", ""))


def _matches(shown: str, want: str) -> bool:
    if "?" not in shown:
        return shown == want
    prefix = shown[:shown.index("?")]
    return want.startswith(prefix)


def cell_of_value(x: Value, declared: str | None = None) -> str:
    """The cell a value belongs to: its tensor element (`float`), else its type text; a declared type names
    what the value cannot show (an empty sequence's or optional's)."""
    shown = value_type(x)
    if declared is not None and (shown is None or "?" in shown or is_container(declared)
                                 or not shown.startswith("tensor(")):
        return cell_name(declared)  # an optional's content shows the content's type, not the optional's
    return cell_name(shown) if shown is not None else "none"


def describe(x: Value) -> str:
    """`float32[2, 3]`, `seq[float32[2], float32[3]]`, `optional(empty)`, `map{3 entries}`."""
    if x is None:
        return "optional(empty)"
    if isinstance(x, list):
        shown = ", ".join(describe(e) for e in x[:4]) + (", ..." if len(x) > 4 else "")
        return f"seq[{shown}]"
    if isinstance(x, dict):
        return f"map{{{len(x)} entries}}"
    array = np.asarray(x)
    return f"{array.dtype}{list(array.shape)}"

