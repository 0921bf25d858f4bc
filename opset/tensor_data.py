"""Whether an onnx TensorProto's stored values fit its dims and element type, checked before anything decodes them.

`numpy_helper.to_array` trusts `dims`: a `raw_data` of 4 bytes under dims [65] ends in a numpy reshape error, and a
string tensor holding bytes that are not UTF-8 in a decode error. Both are facts about the model, so the validator
reports them (check `tensor_data`) and decodes only tensors this module passes. The check compares counts only:
it allocates nothing, so a dims field of 2^40 costs what a dims field of 4 costs (the values themselves are already
in memory, read by protobuf from a file of bounded size).
"""

from __future__ import annotations

import functools
import math
from typing import NamedTuple

from opset.dtypes import CODE_TO_ELEMENT, ELEMENT_BITS
from opset.onnx_proto import pb

_T = pb.TensorProto
# element types packed below a byte in raw_data: (elements, bytes) of one packed group (6-bit: 4 elements in 3 bytes)
_PACKED_RAW: dict[int, tuple[int, int]] = {
    _T.INT4: (2, 1), _T.UINT4: (2, 1), _T.FLOAT4E2M1: (2, 1), _T.INT2: (4, 1), _T.UINT2: (4, 1),
    _T.FLOAT6E2M3: (4, 3), _T.FLOAT6E3M2: (4, 3)}
# element types stored several to one int32_data entry (one packed byte an entry)
_PACKED_TYPED: dict[int, int] = {_T.INT4: 2, _T.UINT4: 2, _T.FLOAT4E2M1: 2, _T.INT2: 4, _T.UINT2: 4}
_COMPLEX: set[int] = {_T.COMPLEX64, _T.COMPLEX128}  # two typed entries an element
_KNOWN = {v for _, v in _T.DataType.items() if v != _T.UNDEFINED}
# the typed field holding a type's values outside raw_data (what onnx.helper.tensor_dtype_to_field says: a test holds
# them equal for every element type); every type not listed keeps them in int32_data
_TYPED_FIELD: dict[int, str] = {
    _T.FLOAT: "float_data", _T.COMPLEX64: "float_data", _T.DOUBLE: "double_data", _T.COMPLEX128: "double_data",
    _T.INT64: "int64_data", _T.UINT32: "uint64_data", _T.UINT64: "uint64_data", _T.STRING: "string_data"}


def element_count(t: pb.TensorProto) -> int:
    """The product of the dims (1 for a scalar); only meaningful when `payload_problem` found none."""
    return math.prod(t.dims)


class Stored(NamedTuple):
    """What a TensorProto stores, read once (each protobuf field access costs about what checking it does)."""

    dims: list[int]
    code: int  # data_type
    problem: str | None  # `payload_problem`'s finding
    here: bool  # the values are in this proto, in one piece (not in an external file, not a segment)
    raw: bytes | None  # raw_data, when the values are there and fit


def payload_problem(t: pb.TensorProto) -> str | None:
    """Why the values `t` stores do not fit its dims and element type, as a phrase (`raw_data holds 4 bytes, dims
    [65] of FLOAT need 260`); None when they fit, or when they live in an external file not loaded."""
    return read_stored(t).problem


def read_stored(t: pb.TensorProto) -> Stored:
    """The tensor's dims, element type and `payload_problem`, with its raw_data when that holds fitting values."""
    dims = t.dims[:]  # read once: each access to the repeated field goes through protobuf
    code = t.data_type
    if dims and min(dims) < 0:
        return Stored(dims, code, f"dims {dims} has a negative dim", False, None)
    if code not in _KNOWN:
        return Stored(dims, code, f"data_type {code} is not an element type", False, None)
    if t.data_location == _T.EXTERNAL:
        # not read: its length is the external file's business (onnx.load checks it when it reads)
        return Stored(dims, code, None, False, None)
    if t.HasField("segment"):
        return Stored(dims, code, None, False, None)  # a segment of a larger tensor: its dims are the whole's
    count = math.prod(dims)
    if code == _T.STRING:
        return Stored(dims, code, _string_problem(t, count), True, None)
    if t.HasField("raw_data"):
        raw = t.raw_data
        have = len(raw)
        per, size = raw_layout(code)
        need = -(-count * size // per)
        if have != need:
            return Stored(dims, code, f"raw_data holds {have} bytes, dims {dims} of {_T.DataType.Name(code)} need "
                          f"{need}", True, None)
        return Stored(dims, code, None, True, raw)
    field = typed_field(code)
    have = len(getattr(t, field))
    need = 2 * count if code in _COMPLEX else -(-count // _PACKED_TYPED.get(code, 1))
    if have != need:
        return Stored(dims, code, f"{field} holds {have} values, dims {dims} of {_T.DataType.Name(code)} need "
                      f"{need}", True, None)
    return Stored(dims, code, None, True, None)


def typed_field(code: int) -> str:
    """The TensorProto field holding the values of element type `code` when raw_data does not."""
    return _TYPED_FIELD.get(code, "int32_data")


@functools.cache
def raw_layout(code: int) -> tuple[int, int]:
    """(elements, bytes) of one group of raw_data for an element type: one element in its bytes, or a packed group of
    sub-byte elements (read once per type: a model can hold thousands of initializers)."""
    return _PACKED_RAW.get(code, (1, ELEMENT_BITS[CODE_TO_ELEMENT[code]] // 8))


def _string_problem(t: pb.TensorProto, count: int) -> str | None:
    if t.HasField("raw_data"):
        return "a STRING tensor keeps its values in string_data, not raw_data"
    have = len(t.string_data)
    if have != count:
        return f"string_data holds {have} values, dims {list(t.dims)} need {count}"
    for k, s in enumerate(t.string_data):
        try:
            s.decode("utf-8")
        except UnicodeDecodeError as e:
            return f"string_data[{k}] is not UTF-8 (byte {e.start})"
    return None
