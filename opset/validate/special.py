"""Ops whose output type (and sometimes shape and values) comes from an attribute, not from inputs.

The registry states such outputs with a type variable no input binds (Constant's T, Cast's T2), and
formulas cannot read tensor attributes; this one table says where those facts come from. Each entry
takes the node's given attributes and its input types (None where unknown). An op missing here simply
gets its output type from the declared value_info, or stays unknown.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from opset.onnx_proto import pb
from opset.validate.facts import Shape, tensor_type, type_text
from opset.validate.tensors import tensor_values


@dataclass(frozen=True, slots=True)
class Produced:
    type: str | None
    shape: Shape | None
    values: tuple[int, ...] | None = None


def _constant(given: dict[str, Any], input_types: list[str | None]) -> Produced | None:
    t = given.get("value")
    if isinstance(t, pb.TensorProto):
        return Produced(tensor_type(t.data_type), tuple(t.dims), tensor_values(t))
    sparse = given.get("sparse_value")
    if isinstance(sparse, pb.SparseTensorProto):
        return Produced(tensor_type(sparse.values.data_type), tuple(sparse.dims))
    scalars = {"value_float": "tensor(float)", "value_int": "tensor(int64)", "value_string": "tensor(string)"}
    for name, type_name in scalars.items():
        if given.get(name) is not None:
            value = given[name]
            return Produced(type_name, (), (value,) if name == "value_int" else None)
    lists = {"value_floats": "tensor(float)", "value_ints": "tensor(int64)", "value_strings": "tensor(string)"}
    for name, type_name in lists.items():
        if given.get(name) is not None:
            value = given[name]
            return Produced(type_name, (len(value),), tuple(value) if name == "value_ints" else None)
    return None


def _constant_of_shape(given: dict[str, Any], input_types: list[str | None]) -> Produced | None:
    t = given.get("value")
    return Produced(tensor_type(t.data_type) if isinstance(t, pb.TensorProto) else "tensor(float)", None)


MAX_FILLED_VALUES = 1024  # values tracked for a ConstantOfShape (a shape filled with ones, -1s ...)


def constant_of_shape_values(given: dict[str, Any], shape: tuple[Any, ...] | None) -> tuple[int, ...] | None:
    """The values of a ConstantOfShape whose shape values are known and whose `value` is an integer (0 without it
    is a float): its one element repeated, as onnx's data propagation tracks a filled shape."""
    t = given.get("value")
    if not isinstance(t, pb.TensorProto) or shape is None or not all(type(d) is int and d >= 0 for d in shape):
        return None
    element = tensor_values(t)
    count = 1
    for d in shape:
        count *= d
    if element is None or len(element) != 1 or count > MAX_FILLED_VALUES:
        return None
    return element * count


def _element_code(to: Any) -> int | None:
    """A DataType as an attribute gives it: its number (opset 6 on), or its name (Cast-1's `to`)."""
    if isinstance(to, bytes):
        to = to.decode("utf-8")
    if isinstance(to, str):
        return pb.TensorProto.DataType.Value(to) if to in pb.TensorProto.DataType.keys() else None
    return to if isinstance(to, int) else None


def _to(given: dict[str, Any], input_types: list[str | None]) -> Produced | None:
    """Cast and BitCast: the type `to` names."""
    code = _element_code(given.get("to"))
    return Produced(tensor_type(code), None) if code is not None else None


def _dtype_else_input(given: dict[str, Any], input_types: list[str | None]) -> Produced | None:
    """EyeLike, RandomNormalLike, RandomUniformLike, Bernoulli: the type `dtype` names, else the input's."""
    code = _element_code(given.get("dtype"))
    if code is not None:
        return Produced(tensor_type(code), None)
    first = input_types[0] if input_types else None
    return Produced(first, None) if first is not None else None


_KIND_TYPES = {"strings": "tensor(string)", "int64s": "tensor(int64)", "floats": "tensor(float)"}
_FLIPPED = {"tensor(string)": "tensor(int64)", "tensor(int64)": "tensor(string)"}


def _values_kind(given: dict[str, Any], input_types: list[str | None]) -> Produced | None:
    """LabelEncoder: Y has the values' type (values_tensor's element, else the values_* list's kind); version 1
    maps strings to int64 and int64 to strings (the other way from X, as CategoryMapper always does)."""
    values = given.get("values_tensor")
    if isinstance(values, pb.TensorProto):
        return Produced(tensor_type(values.data_type), None)
    for kind, type_name in _KIND_TYPES.items():
        if given.get(f"values_{kind}") is not None:
            return Produced(type_name, None)
    return _flipped(given, input_types)


def _flipped(given: dict[str, Any], input_types: list[str | None]) -> Produced | None:
    """CategoryMapper (and LabelEncoder 1): int64 for a string X, strings for an int64 X."""
    first = input_types[0] if input_types else None
    return Produced(_FLIPPED[first], None) if first in _FLIPPED else None


def _cast_to(given: dict[str, Any], input_types: list[str | None]) -> Produced | None:
    """CastMap: the element type `cast_to` names (float without it)."""
    named = {"TO_FLOAT": "tensor(float)", "TO_INT64": "tensor(int64)", "TO_STRING": "tensor(string)"}
    return Produced(named.get(str(given.get("cast_to", "TO_FLOAT"))), None)


def _map_values(given: dict[str, Any], input_types: list[str | None]) -> Produced | None:
    """DictVectorizer: a tensor of the map's value type."""
    first = input_types[0] if input_types else None
    if first is None or not first.startswith("map("):
        return None
    value = first[len("map("):-1].partition(",")[2].strip()
    return Produced(value if value.startswith("tensor(") else f"tensor({value})", None)


def _labelled_maps(given: dict[str, Any], input_types: list[str | None]) -> Produced | None:
    """ZipMap: a sequence of maps from its labels' type (strings or int64) to float."""
    key = "string" if given.get("classlabels_strings") else "int64" if given.get("classlabels_int64s") else None
    return Produced(f"seq(map({key},tensor(float)))", None) if key is not None else None


def _class_labels(given: dict[str, Any], input_types: list[str | None]) -> Produced | None:
    """The classifiers (TreeEnsembleClassifier, SVMClassifier, LinearClassifier): Y, the top class's label, has the
    labels' type (strings or int64)."""
    if given.get("classlabels_strings") is not None:
        return Produced("tensor(string)", None)
    ints = given.get("classlabels_int64s", given.get("classlabels_ints"))
    return Produced("tensor(int64)", None) if ints is not None else None


def _sequence_empty(given: dict[str, Any], input_types: list[str | None]) -> Produced | None:
    """SequenceEmpty: a sequence of the element type `dtype` names (float without it)."""
    code = _element_code(given.get("dtype", pb.TensorProto.FLOAT))
    element = tensor_type(code) if code is not None else None
    return Produced(f"seq({element})", None) if element is not None else None


def _optional(given: dict[str, Any], input_types: list[str | None]) -> Produced | None:
    """Optional without an input: an optional of the type `type` names (with an input, the input's type
    binds it through the type relation)."""
    tp = given.get("type")
    inner = type_text(tp) if isinstance(tp, pb.TypeProto) else None
    return Produced(f"optional({inner})", None) if inner is not None else None


def _dtype_else(default: int) -> Callable[[dict[str, Any], list[str | None]], Produced | None]:
    """RandomNormal, RandomUniform (float) and Multinomial (int32): the type `dtype` names, else the default's."""

    def produced(given: dict[str, Any], input_types: list[str | None]) -> Produced | None:
        code = _element_code(given.get("dtype"))
        return Produced(tensor_type(code if code is not None else default), None)

    return produced


ATTRIBUTE_OUTPUTS: dict[tuple[str, str], Callable[[dict[str, Any], list[str | None]], Produced | None]] = {
    ("ai.onnx", "Constant"): _constant,
    ("ai.onnx", "ConstantOfShape"): _constant_of_shape,
    ("ai.onnx", "Cast"): _to,
    ("ai.onnx", "BitCast"): _to,
    ("ai.onnx", "EyeLike"): _dtype_else_input,
    ("ai.onnx.ml", "LabelEncoder"): _values_kind,
    ("ai.onnx.ml", "CategoryMapper"): _flipped,
    ("ai.onnx.ml", "CastMap"): _cast_to,
    ("ai.onnx.ml", "DictVectorizer"): _map_values,
    ("ai.onnx.ml", "ZipMap"): _labelled_maps,
    ("ai.onnx.ml", "TreeEnsembleClassifier"): _class_labels,
    ("ai.onnx.ml", "SVMClassifier"): _class_labels,
    ("ai.onnx.ml", "LinearClassifier"): _class_labels,
    ("ai.onnx", "SequenceEmpty"): _sequence_empty,
    ("ai.onnx", "Optional"): _optional,
    ("ai.onnx", "RandomNormal"): _dtype_else(pb.TensorProto.FLOAT),
    ("ai.onnx", "RandomUniform"): _dtype_else(pb.TensorProto.FLOAT),
    ("ai.onnx", "Multinomial"): _dtype_else(pb.TensorProto.INT32),
    ("ai.onnx", "RandomNormalLike"): _dtype_else_input,
    ("ai.onnx", "RandomUniformLike"): _dtype_else_input,
    ("ai.onnx", "Bernoulli"): _dtype_else_input,
}
