"""Runtime values beyond tensors, as every backend, kernel and check sees them.

A tensor is a numpy array; a sequence a Python list of values; an optional None (empty) or its value; a map a
Python dict (int or str keys; values numpy scalars or arrays, or Python numbers as onnx.reference gives them).
This module says what such a value's shape, size and type are, describes one in a line, and packs values into
flat arrays (and a JSON layout) for `.npz` files (`opset run`'s container outputs and inputs; repro bundles store
values as onnx protos: conformance.value_protos).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from conformance.element_types import element_of
from opset.cells import cell_name
from opset.dtypes import is_container as is_container_type
from opset.dtypes import numpy_name
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


def with_declared_type(x: Value, type_text: str | None) -> Value:
    """A value whose map values are plain Python numbers (onnxruntime's and onnx.reference's maps) as the numpy
    scalars of the element type the declared type names: a Python float cannot say whether it is a float or a
    double. Only a number of the element's kind is converted (no float into an integer map, no bool into a number);
    anything else, or without a declared container type, is returned as it is."""
    if type_text is None or x is None:
        return x
    from opset.dtypes import inner_type, map_parts, tensor_element, type_kind

    kind = type_kind(type_text)
    if kind == "seq" and isinstance(x, list):
        inner = inner_type(type_text)
        return [with_declared_type(e, inner) for e in x]
    if kind == "optional":
        return with_declared_type(x, inner_type(type_text))
    parts = map_parts(type_text) if kind == "map" else None
    if parts is None or not isinstance(x, dict):
        return x
    element = tensor_element(parts[1])
    name = numpy_name(element) if element is not None else None
    if name is None or name == "str":
        return x
    scalar = np.dtype(name).type
    return {k: scalar(v) if _python_number_of_kind(v, np.dtype(name)) else v for k, v in x.items()}


def _python_number_of_kind(v: Any, dtype: np.dtype) -> bool:
    """A plain Python bool, int or float that `dtype` holds as it is: a bool for bool, an int in range for an integer
    type, an int or a float for a float type (never a numpy value, whose type says what it is)."""
    if isinstance(v, np.generic) or not isinstance(v, bool | int | float):
        return False
    if isinstance(v, bool) or dtype.kind == "b":
        return isinstance(v, bool) and dtype.kind == "b"
    if dtype.kind in "iu":
        return isinstance(v, int) and bool(np.iinfo(dtype).min <= v <= np.iinfo(dtype).max)
    return dtype.kind in "fc"


def is_container(x: Any) -> bool:
    """A runtime value that is no tensor: a sequence (list), a map (dict), an empty optional (None)."""
    return x is None or isinstance(x, list | dict)


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
    if declared is not None and (shown is None or "?" in shown or is_container_type(declared)
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


# ---------------------------------------------------------------------------------------- .npz storage


def pack(values: Mapping[str, Value]) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """Named values as flat arrays for `np.savez` and a JSON layout that rebuilds them (`unpack`): a tensor is
    stored under its name; a sequence's elements under `name#0`, `name#1` ...; a map's keys and values apart."""
    arrays: dict[str, np.ndarray] = {}
    layout = {name: _pack(value, name, arrays) for name, value in values.items()}
    return arrays, layout


def _pack(x: Value, key: str, arrays: dict[str, np.ndarray]) -> Any:
    if x is None:
        return {"none": True}
    if isinstance(x, list):
        return {"seq": [_pack(e, f"{key}#{i}", arrays) for i, e in enumerate(x)]}
    if isinstance(x, dict):
        keys = list(x)
        return {"map": {"keys": keys, "values": [_pack(np.asarray(x[k]), f"{key}#{i}", arrays)
                                                 for i, k in enumerate(keys)]}}
    arrays[key] = np.asarray(x)
    return {"tensor": key}


def unpack(layout: Mapping[str, Any], arrays: Mapping[str, np.ndarray]) -> dict[str, Value]:
    return {name: _unpack(spec, arrays) for name, spec in layout.items()}


def _unpack(spec: Mapping[str, Any], arrays: Mapping[str, np.ndarray]) -> Value:
    if "tensor" in spec:
        return np.asarray(arrays[spec["tensor"]])
    if "seq" in spec:
        return [_unpack(s, arrays) for s in spec["seq"]]
    if "map" in spec:
        return {k: _unpack(v, arrays) for k, v in zip(spec["map"]["keys"], spec["map"]["values"], strict=True)}
    return None
