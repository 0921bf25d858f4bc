"""What validation reads of a stored tensor (an initializer, a Constant's value): its facts, whether its stored
values fit its dims (`opset.tensor_data`), and the values of a small int tensor (a Reshape's shape, a Slice's
starts), which shape formulas read."""

from __future__ import annotations

import math
import struct
from typing import NamedTuple

from opset.onnx_proto import pb
from opset.tensor_data import Stored, read_stored
from opset.validate.facts import Facts, tensor_type
from opset.validate.outcomes import Outcomes

MAX_VALUES = 1024  # values tracked for shape-like int tensors (Reshape's shape, Slice's starts ...)
_INT_TYPES = {pb.TensorProto.INT64, pb.TensorProto.INT32}
# a float tensor's values are read when it has at most this many elements: a Resize's scales, a Clip's bounds (not a
# bias or a weight, whose values no formula reads)
MAX_FLOAT_VALUES = 8
_FLOAT_FORMATS: dict[int, tuple[str, str]] = {pb.TensorProto.FLOAT: ("f", "float_data"),
                                              pb.TensorProto.DOUBLE: ("d", "double_data")}


def tensor_values(t: pb.TensorProto) -> tuple[int, ...] | None:
    """The values of a small int tensor, else None (weights are never converted, nor values that do not fit their
    dims: those are reported as tensor_data)."""
    return stored_values(t, read_stored(t))


def stored_values(t: pb.TensorProto, stored: Stored) -> tuple[int, ...] | None:
    """`tensor_values` of `t`, whose stored values `read_stored` read already."""
    if stored.code in _FLOAT_FORMATS:
        return _float_values(t, stored)  # type: ignore[return-value]  # (floats where formulas read scales)
    if stored.code not in _INT_TYPES or stored.problem is not None or not stored.here:
        return None
    count = math.prod(stored.dims)
    if count > MAX_VALUES:
        return None
    int64 = stored.code == pb.TensorProto.INT64
    if stored.raw is not None:  # little-endian, as onnx stores it: struct reads it without numpy's round trip
        values: tuple[int, ...] = struct.unpack(f"<{count}{'q' if int64 else 'i'}", stored.raw)
        return values
    return tuple(t.int64_data) if int64 else tuple(t.int32_data)


def _float_values(t: pb.TensorProto, stored: Stored) -> tuple[float, ...] | None:
    """The values of a float or double tensor of at most MAX_FLOAT_VALUES elements, else None."""
    if stored.problem is not None or not stored.here:
        return None
    count = math.prod(stored.dims)
    if count > MAX_FLOAT_VALUES:
        return None
    letter, field = _FLOAT_FORMATS[stored.code]
    if stored.raw is not None:
        values: tuple[float, ...] = struct.unpack(f"<{count}{letter}", stored.raw)
        return values
    return tuple(getattr(t, field))


class Initializer(NamedTuple):
    """An initializer as validation reads it."""

    name: str
    facts: Facts  # its element type and dims
    problem: str | None  # why its stored values do not fit its dims (`payload_problem`)
    values: tuple[int, ...] | None  # a small int tensor's values (`tensor_values`)


# an initializer of at most this many elements (a shape, a scalar, a bias, a small kernel) and this many bytes (its
# stored values may not fit its dims) is kept by its bytes
KEPT_ELEMENTS = 256
KEPT_BYTES = 1024
_KEPT: Outcomes[Initializer] = Outcomes()


def read_initializer(t: pb.TensorProto) -> Initializer:
    """The initializer as validation reads it, from its fields."""
    stored = read_stored(t)
    return Initializer(t.name, Facts(tensor_type(stored.code), tuple(stored.dims)), stored.problem,
                       stored_values(t, stored))


def kept_initializer(t: pb.TensorProto) -> Initializer:
    """`read_initializer`, kept by the tensor's bytes across runs when it is small: serialising a small tensor costs
    a fifth of reading its fields through protobuf (light models feed hundreds of shapes to ConstantOfShape)."""
    if math.prod(t.dims[:]) <= KEPT_ELEMENTS:
        data = t.SerializeToString()
        if len(data) <= KEPT_BYTES:
            found = _KEPT.get(data)
            if found is None:
                found = read_initializer(t)
                _KEPT.put(data, found)
            return found
    return read_initializer(t)
