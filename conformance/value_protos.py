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
from onnx import numpy_helper

ProtoValue = onnx.TensorProto | onnx.SequenceProto | onnx.OptionalProto | onnx.MapProto


def to_proto(value: Any, name: str, type_proto: onnx.TypeProto | None = None) -> ProtoValue:
    """A runtime value (array, list, None for an empty optional, dict) as the proto that holds it; a value the
    model declares an optional is stored in an OptionalProto even when present."""
    if type_proto is not None and type_proto.WhichOneof("value") == "optional_type" and value is not None:
        optional = numpy_helper.from_optional(None, name)
        inner = to_proto(value, name)
        optional.elem_type = (onnx.OptionalProto.SEQUENCE if isinstance(inner, onnx.SequenceProto) else
                              onnx.OptionalProto.MAP if isinstance(inner, onnx.MapProto) else onnx.OptionalProto.TENSOR)
        target: Any = {onnx.OptionalProto.SEQUENCE: optional.sequence_value, onnx.OptionalProto.MAP: optional.map_value,
                  onnx.OptionalProto.TENSOR: optional.tensor_value}[optional.elem_type]
        target.CopyFrom(inner)
        return optional
    if isinstance(value, dict):
        return numpy_helper.from_dict(value, name)
    if isinstance(value, list):
        return numpy_helper.from_list(value, name)
    if value is None:
        return numpy_helper.from_optional(None, name)
    return numpy_helper.from_array(np.asarray(value), name)


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
        return numpy_helper.to_list(proto)
    if isinstance(proto, onnx.OptionalProto):
        return numpy_helper.to_optional(proto)
    if isinstance(proto, onnx.MapProto):
        return numpy_helper.to_dict(proto)
    return numpy_helper.to_array(proto)


def save_value(path: Path, value: Any, name: str, type_proto: onnx.TypeProto | None = None) -> None:
    path.write_bytes(to_proto(value, name, type_proto).SerializeToString())


def load_value(path: Path, type_proto: onnx.TypeProto) -> Any:
    proto = proto_for(type_proto)
    proto.ParseFromString(path.read_bytes())
    return from_proto(proto)
