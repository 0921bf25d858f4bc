"""Values as onnx protos, the ONNX backend test-data way (`input_0.pb` ...): every element type (ml_dtypes' and
strings too) and every container round-trips without pickle.

A tensor is a TensorProto, a sequence a SequenceProto, an optional an OptionalProto, a map a MapProto; which one
a file holds is read from the type the model declares for that value, as onnx's own backend test runner does.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import onnx
from onnx import helper, numpy_helper

ProtoValue = onnx.TensorProto | onnx.SequenceProto | onnx.OptionalProto | onnx.MapProto


def to_proto(value: Any, name: str, type_proto: onnx.TypeProto | None = None) -> ProtoValue:
    """A runtime value (array, list, None for an empty optional, dict) as the proto that holds it; a value the
    model declares an optional is stored in an OptionalProto even when present."""
    if type_proto is not None and type_proto.WhichOneof("value") == "optional_type" and value is not None:
        optional = numpy_helper.from_optional(None, name)
        inner = to_proto(value, name, type_proto.optional_type.elem_type)
        optional.elem_type = (onnx.OptionalProto.SEQUENCE if isinstance(inner, onnx.SequenceProto) else
                              onnx.OptionalProto.MAP if isinstance(inner, onnx.MapProto) else onnx.OptionalProto.TENSOR)
        target: Any = {onnx.OptionalProto.SEQUENCE: optional.sequence_value, onnx.OptionalProto.MAP: optional.map_value,
                  onnx.OptionalProto.TENSOR: optional.tensor_value}[optional.elem_type]
        target.CopyFrom(inner)
        return optional
    if isinstance(value, dict):
        if type_proto is not None and type_proto.WhichOneof("value") == "map_type":
            return _map_proto(value, name, type_proto.map_type)
        return numpy_helper.from_dict(value, name)
    if isinstance(value, list):
        if type_proto is not None and type_proto.WhichOneof("value") == "sequence_type":
            return _sequence_proto(value, name, type_proto.sequence_type.elem_type)
        return numpy_helper.from_list(value, name)
    if value is None:
        return numpy_helper.from_optional(None, name)
    return numpy_helper.from_array(np.asarray(value), name)


_SEQUENCE_ELEMENTS = {"tensor_type": onnx.SequenceProto.TENSOR, "sequence_type": onnx.SequenceProto.SEQUENCE,
                      "map_type": onnx.SequenceProto.MAP, "optional_type": onnx.SequenceProto.OPTIONAL}


def _sequence_proto(value: list[Any], name: str, element: onnx.TypeProto) -> onnx.SequenceProto:
    """A sequence whose elements are stored as the declared element type says (an empty one keeps its kind; maps
    and optionals inside are typed as declared)."""
    kind = _SEQUENCE_ELEMENTS.get(element.WhichOneof("value") or "")
    if kind is None:
        return numpy_helper.from_list(value, name)
    proto = onnx.SequenceProto(name=name, elem_type=kind)
    target: Any = {onnx.SequenceProto.TENSOR: proto.tensor_values, onnx.SequenceProto.SEQUENCE: proto.sequence_values,
                   onnx.SequenceProto.MAP: proto.map_values, onnx.SequenceProto.OPTIONAL: proto.optional_values}[kind]
    for x in value:
        target.add().CopyFrom(to_proto(x, "", element))
    return proto


def _map_proto(value: dict[Any, Any], name: str, map_type: onnx.TypeProto.Map) -> onnx.MapProto:
    """A map of the declared key and (tensor) value types: numpy_helper.from_dict guesses both from the first entry
    with np.result_type, which reads a str as a dtype name, and refuses an empty map."""
    if not map_type.value_type.HasField("tensor_type"):
        return numpy_helper.from_dict(value, name)
    proto = onnx.MapProto(name=name, key_type=map_type.key_type)
    keys = list(value)
    if map_type.key_type == onnx.TensorProto.STRING:
        proto.string_keys.extend(str(k).encode("utf-8") for k in keys)
    else:
        proto.keys.extend(int(k) for k in keys)
    dtype = helper.tensor_dtype_to_np_dtype(map_type.value_type.tensor_type.elem_type)
    proto.values.elem_type = onnx.SequenceProto.TENSOR
    proto.values.tensor_values.extend(numpy_helper.from_array(np.asarray(value[k], dtype=dtype)) for k in keys)
    return proto


def proto_for(type_proto: onnx.TypeProto) -> ProtoValue:
    """An empty proto of the kind a value of `type_proto` is stored in."""
    kind = type_proto.WhichOneof("value")
    if kind == "sequence_type":
        return onnx.SequenceProto()
    if kind == "optional_type":
        return onnx.OptionalProto()
    if kind == "map_type":
        return onnx.MapProto()
    return onnx.TensorProto()


def from_proto(proto: ProtoValue) -> Any:
    if isinstance(proto, onnx.SequenceProto):
        return _runtime_value(numpy_helper.to_list(proto))
    if isinstance(proto, onnx.OptionalProto):
        return _runtime_value(numpy_helper.to_optional(proto))
    if isinstance(proto, onnx.MapProto):
        return _runtime_value(numpy_helper.to_dict(proto))
    return numpy_helper.to_array(proto)


def _runtime_value(value: Any) -> Any:
    """A value read from a proto as the runtime holds it (conformance.containers), at any depth: a map's string keys
    as str (numpy_helper gives bytes), its scalar values as numpy scalars or str (numpy_helper gives 0-d arrays)."""
    if isinstance(value, dict):
        return {k.decode("utf-8") if isinstance(k, bytes) else k:
                v[()] if isinstance(v, np.ndarray) and v.ndim == 0 else _runtime_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_runtime_value(x) for x in value]
    return value


def save_value(path: Path, value: Any, name: str, type_proto: onnx.TypeProto | None = None) -> None:
    path.write_bytes(to_proto(value, name, type_proto).SerializeToString())


def load_value(path: Path, type_proto: onnx.TypeProto) -> Any:
    proto = proto_for(type_proto)
    proto.ParseFromString(path.read_bytes())
    return from_proto(proto)
