"""Type strings of the registry (`tensor(float)`) and their element types, numpy names and ONNX codes.

Kept free of numpy and onnx imports: the registry load path uses it.
"""

from __future__ import annotations

import re

# ONNX element type name -> (TensorProto code, numpy dtype name: numpy's own, or the ml_dtypes type holding it)
ELEMENT_TYPES: dict[str, tuple[int, str | None]] = {
    "float": (1, "float32"),
    "uint8": (2, "uint8"),
    "int8": (3, "int8"),
    "uint16": (4, "uint16"),
    "int16": (5, "int16"),
    "int32": (6, "int32"),
    "int64": (7, "int64"),
    "string": (8, "str"),
    "bool": (9, "bool"),
    "float16": (10, "float16"),
    "double": (11, "float64"),
    "uint32": (12, "uint32"),
    "uint64": (13, "uint64"),
    "complex64": (14, "complex64"),
    "complex128": (15, "complex128"),
    "bfloat16": (16, "bfloat16"),
    "float8e4m3fn": (17, "float8_e4m3fn"),
    "float8e4m3fnuz": (18, "float8_e4m3fnuz"),
    "float8e5m2": (19, "float8_e5m2"),
    "float8e5m2fnuz": (20, "float8_e5m2fnuz"),
    "uint4": (21, "uint4"),
    "int4": (22, "int4"),
    "float4e2m1": (23, "float4_e2m1fn"),
    "float8e8m0": (24, "float8_e8m0fnu"),
    "uint2": (25, "uint2"),
    "int2": (26, "int2"),
    "float6e2m3": (27, "float6_e2m3fn"),
    "float6e3m2": (28, "float6_e3m2fn"),
}
NUMPY_TO_ELEMENT: dict[str, str] = {np_name: onnx_name for onnx_name, (_, np_name) in ELEMENT_TYPES.items() if np_name}
CODE_TO_ELEMENT: dict[int, str] = {code: name for name, (code, _) in ELEMENT_TYPES.items()}

_TYPE_RE = re.compile(r"^(tensor|sparse_tensor|seq|optional|map)\((.*)\)$")


def canonical_type(text: str) -> str:
    """One spelling per type: no spaces, and a map's bare element value written as the tensor it is.

    onnx writes ZipMap's type both `seq(map(string, float))` (its constraint) and
    `seq(map(string,tensor(float)))` (its output); a model's TypeProto says the second.
    """
    text = text.replace(" ", "")
    m = _TYPE_RE.match(text)
    if m is None:
        return text
    kind, inner = m.groups()
    if kind in ("tensor", "sparse_tensor"):
        return text
    if kind == "map":
        key, _, value = inner.partition(",")
        value = f"tensor({value})" if value in ELEMENT_TYPES else canonical_type(value)
        return f"map({key},{value})"
    return f"{kind}({canonical_type(inner)})"


def is_valid_type(text: str) -> bool:
    """`tensor(float)`, `seq(tensor(int64))`, `map(string, tensor(float))`, `map(int64, float)`, `optional(...)`."""
    m = _TYPE_RE.match(text.replace(" ", ""))
    if m is None:
        return False
    kind, inner = m.groups()
    if kind in ("tensor", "sparse_tensor"):
        return inner in ELEMENT_TYPES
    if kind == "map":
        key, _, value = inner.partition(",")
        return key in ELEMENT_TYPES and (value in ELEMENT_TYPES or is_valid_type(value))
    return is_valid_type(inner)


def tensor_element(text: str) -> str | None:
    """`tensor(float)` -> `float`; None for non-tensor types."""
    m = _TYPE_RE.match(text.replace(" ", ""))
    if m is None or m.group(1) != "tensor":
        return None
    return m.group(2)


def innermost_element(text: str) -> str | None:
    """The element type at the bottom of a type: `seq(tensor(float))` -> `float`; a map's value element."""
    m = _TYPE_RE.match(text.replace(" ", ""))
    if m is None:
        return text if text in ELEMENT_TYPES else None
    kind, inner = m.groups()
    if kind in ("tensor", "sparse_tensor"):
        return inner
    if kind == "map":
        return innermost_element(inner.partition(",")[2])
    return innermost_element(inner)


def numpy_name(element: str) -> str | None:
    """ONNX element name -> numpy dtype name (None when numpy has no such dtype)."""
    return ELEMENT_TYPES[element][1] if element in ELEMENT_TYPES else None


def element_of_numpy(np_name: str) -> str | None:
    return NUMPY_TO_ELEMENT.get(np_name)
