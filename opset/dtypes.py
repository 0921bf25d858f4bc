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
# bits one element takes (a bool one byte, as onnx stores it); the integer and floating-point element types. What
# the formulas' element-type functions (`bits`, `is_integer`, `is_float`: opset.formula.element_types) read.
ELEMENT_BITS: dict[str, int] = {
    "float": 32, "uint8": 8, "int8": 8, "uint16": 16, "int16": 16, "int32": 32, "int64": 64, "bool": 8,
    "float16": 16, "double": 64, "uint32": 32, "uint64": 64, "complex64": 64, "complex128": 128, "bfloat16": 16,
    "float8e4m3fn": 8, "float8e4m3fnuz": 8, "float8e5m2": 8, "float8e5m2fnuz": 8, "uint4": 4, "int4": 4,
    "float4e2m1": 4, "float8e8m0": 8, "uint2": 2, "int2": 2, "float6e2m3": 6, "float6e3m2": 6,
}
INTEGER_ELEMENTS = frozenset({"uint8", "int8", "uint16", "int16", "int32", "int64", "uint32", "uint64", "uint4",
                              "int4", "uint2", "int2"})
FLOAT_ELEMENTS = frozenset({"float", "float16", "double", "bfloat16", "float8e4m3fn", "float8e4m3fnuz", "float8e5m2",
                            "float8e5m2fnuz", "float4e2m1", "float8e8m0", "float6e2m3", "float6e3m2"})
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


# ---- container types: sequences, optionals and maps -------------------------------------------------------

CONTAINER_KINDS = ("seq", "optional", "map")


def type_kind(text: str) -> str | None:
    """`tensor`, `sparse_tensor`, `seq`, `optional` or `map`; None for text that is no type."""
    m = _TYPE_RE.match(text.replace(" ", ""))
    return m.group(1) if m is not None else None


def is_container(text: str) -> bool:
    return type_kind(text) in CONTAINER_KINDS


def inner_type(text: str) -> str | None:
    """What a sequence or an optional holds (canonical): `seq(tensor(float))` -> `tensor(float)`; None otherwise."""
    m = _TYPE_RE.match(canonical_type(text))
    if m is None or m.group(1) not in ("seq", "optional"):
        return None
    return m.group(2)


def map_parts(text: str) -> tuple[str, str] | None:
    """A map's key element and value type (canonical): `map(int64,tensor(float))` -> (`int64`, `tensor(float)`)."""
    m = _TYPE_RE.match(canonical_type(text))
    if m is None or m.group(1) != "map":
        return None
    key, _, value = m.group(2).partition(",")
    return key, value


def type_elements(text: str) -> list[str]:
    """Every element type a type holds, a map's key included: `map(string,tensor(float))` -> [string, float]."""
    kind = type_kind(text)
    if kind in ("tensor", "sparse_tensor"):
        element = tensor_element(text) if kind == "tensor" else canonical_type(text)[len("sparse_tensor("):-1]
        return [element] if element else []
    if kind in ("seq", "optional"):
        inner = inner_type(text)
        return type_elements(inner) if inner else []
    parts = map_parts(text)
    return [parts[0], *type_elements(parts[1])] if parts else []


# A version's `type_relations` say how a type variable follows another one: `element(S)` (what the sequence
# or optional S holds), `seq(T)`, `optional(V)`, `unwrap(O)` (what the optional O holds, O itself when it is
# no optional). Where the variable's argument is bound, the relation gives the variable's type.
TYPE_FUNCTIONS = ("element", "seq", "optional", "unwrap")
_RELATION_RE = re.compile(r"^(element|seq|optional|unwrap)\((.+)\)$")


def relation_source(expr: str) -> str | None:
    """The type variable a relation reads (`element(seq(S))` -> `S`); None when the text is no relation."""
    m = _RELATION_RE.match(expr.replace(" ", ""))
    if m is None:
        return None
    inner = m.group(2)
    return relation_source(inner) if _RELATION_RE.match(inner) else (inner if inner.isidentifier() else None)


def apply_relation(expr: str, bindings: dict[str, str]) -> str | None:
    """The type a relation gives for the bound variables (type texts), None when its variable is unbound or
    the relation does not apply (`element` of a tensor)."""
    text = expr.replace(" ", "")
    m = _RELATION_RE.match(text)
    if m is None:
        bound = bindings.get(text)
        return canonical_type(bound) if bound is not None else None
    function, argument = m.groups()
    value = apply_relation(argument, bindings)
    if value is None:
        return None
    if function == "seq":
        return f"seq({value})"
    if function == "optional":
        return f"optional({value})"
    inner = inner_type(value)
    if function == "element":
        return inner
    return inner if type_kind(value) == "optional" else value


def proto_type_text(tp: object) -> str | None:
    """The type text of an onnx TypeProto (`tensor(float)`, `seq(tensor(int64))` ...), read through the proto's own
    accessors so this module needs no onnx import; None when the type is absent or its element unknown."""
    which = getattr(tp, "WhichOneof", None)
    kind = which("value") if callable(which) else None
    codes = CODE_TO_ELEMENT
    if kind in ("tensor_type", "sparse_tensor_type"):
        element = codes.get(getattr(tp, kind).elem_type)
        prefix = "tensor" if kind == "tensor_type" else "sparse_tensor"
        return f"{prefix}({element})" if element else None
    if kind in ("sequence_type", "optional_type"):
        inner = proto_type_text(getattr(tp, kind).elem_type)
        return f"{'seq' if kind == 'sequence_type' else 'optional'}({inner})" if inner else None
    if kind == "map_type":
        key = codes.get(tp.map_type.key_type)  # type: ignore[attr-defined]
        value = proto_type_text(tp.map_type.value_type)  # type: ignore[attr-defined]
        return f"map({key},{value})" if key and value else None
    return None
