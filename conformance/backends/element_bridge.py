"""Element types across a library's Python API: the one place where `ml_dtypes` arrays become what a library takes
(raw bits, packed bytes) and where what it gives back becomes `ml_dtypes` arrays again.

Every library that computes in bfloat16, float8 or 4-bit types misreads `ml_dtypes` arrays in its own way: OpenVINO
reads a bfloat16 array by its item size (as float16) and gives bfloat16 and float8 back as their raw bits in float16
and uint8 arrays, 4-bit tensors as packed nibbles; torch has no constructor from them at all. So an adapter converts
explicitly, here:

- `raw_bits(x)`: each element's bits in an unsigned integer array of the element's byte width (uint16 for bfloat16,
  uint8 for the float8 types), the same shape; `from_raw_bits(bits, element)` the way back.
- `packed(x)`: a sub-byte tensor (int4, uint4, float4e2m1, int2, uint2) as the bytes of an ONNX TensorProto's
  raw_data: elements in order, element 0 in the lowest bits of byte 0; `unpacked(data, element, shape)` the way back.

Nothing here rounds or widens: every conversion is a reinterpretation of the same bits, tested per type
(tests/conformance/backends/test_element_bridge.py).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from conformance.element_types import SUB_BYTE_BITS, element_of, is_ml_dtype, numpy_dtype


class BridgeError(ValueError):
    """A value that has no such form (a numpy type given where an ml_dtypes one is expected, a short buffer)."""


def ml_element(x: np.ndarray) -> str | None:
    """The ONNX element name of an ml_dtypes array (`bfloat16`, `float8e4m3fn`, `int4` ...), None for numpy's own
    types."""
    return element_of(x.dtype) if is_ml_dtype(x.dtype) else None


def raw_bits(x: np.ndarray) -> np.ndarray:
    """The bits of each element of an ml_dtypes array, as unsigned integers of its byte width (a sub-byte element:
    one per byte, in the low bits), same shape, C order."""
    element = ml_element(x)
    if element is None:
        raise BridgeError(f"raw_bits: {x.dtype} is not an ml_dtypes type")
    unsigned = np.dtype(f"u{x.dtype.itemsize}")
    bits = np.require(x, requirements="C").view(unsigned)
    if element in SUB_BYTE_BITS:  # only the low bits are the element's (whatever a library left above them)
        bits = bits & np.uint8((1 << SUB_BYTE_BITS[element]) - 1)
    return bits.reshape(x.shape)


def from_raw_bits(bits: np.ndarray, element: str) -> np.ndarray:
    """The ml_dtypes array whose elements have these bits (any integer or float array of the element's byte width,
    read as bits; a sub-byte element's bits in the low bits of each byte)."""
    dtype = numpy_dtype(element)
    bits = np.require(np.asarray(bits), requirements="C")
    if bits.dtype.itemsize != dtype.itemsize:
        raise BridgeError(f"from_raw_bits: {element} elements take {dtype.itemsize} byte(s), the array has "
                          f"{bits.dtype.itemsize}-byte items ({bits.dtype})")
    unsigned = bits.view(np.dtype(f"u{dtype.itemsize}"))
    if element in SUB_BYTE_BITS:  # ml_dtypes keeps a sub-byte element in the low bits of its byte, the rest zero
        unsigned = unsigned & np.uint8((1 << SUB_BYTE_BITS[element]) - 1)
    return unsigned.view(dtype).reshape(bits.shape)


def packed(x: np.ndarray) -> np.ndarray:
    """A sub-byte ml_dtypes array as packed bytes (uint8, 1-D): ONNX's raw_data layout, element 0 in the lowest bits
    of byte 0, the last byte padded with zero bits."""
    element = ml_element(x)
    if element is None or element not in SUB_BYTE_BITS:
        raise BridgeError(f"packed: {x.dtype} is not a sub-byte type")
    width = SUB_BYTE_BITS[element]
    values = raw_bits(x).reshape(-1)
    # each element's `width` bits, least significant first, then all of them as one little-endian bit string
    bits = np.unpackbits(values[:, None], axis=1, bitorder="little")[:, :width].reshape(-1)
    return np.packbits(bits, bitorder="little")


def unpacked(data: bytes | np.ndarray, element: str, shape: Sequence[int]) -> np.ndarray:
    """The ml_dtypes array of `shape` whose elements `data` holds packed (the layout of `packed`)."""
    if element not in SUB_BYTE_BITS:
        raise BridgeError(f"unpacked: {element} is not a sub-byte type")
    width = SUB_BYTE_BITS[element]
    count = math.prod(shape)
    raw = np.frombuffer(bytes(data) if not isinstance(data, np.ndarray) else data.tobytes(), dtype=np.uint8)
    need = -(-count * width // 8)
    if raw.size < need:
        raise BridgeError(f"unpacked: {count} {element} elements need {need} bytes, got {raw.size}")
    bits = np.unpackbits(raw[:need], bitorder="little")[:count * width].reshape(count, width)
    values = np.packbits(bits, axis=1, bitorder="little").reshape(-1)
    return from_raw_bits(values, element).reshape(tuple(shape))


def packed_size(element: str, shape: Sequence[int]) -> int:
    """Bytes a packed sub-byte tensor of `shape` takes."""
    return -(-math.prod(shape) * SUB_BYTE_BITS[element] // 8)
