"""The element-type bridge of the built-in adapters: every ml_dtypes type round-trips through its raw bits, and every
sub-byte type packs exactly as onnx packs a TensorProto's raw_data (onnx's own writer is the oracle)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from onnx import numpy_helper

from conformance.backends.element_bridge import (
    BridgeError,
    from_raw_bits,
    ml_element,
    packed,
    packed_size,
    raw_bits,
    unpacked,
)
from conformance.element_types import ML_FLOATS, ML_INTEGERS, SUB_BYTE_BITS, finite_range, numpy_dtype

ML_TYPES = sorted(ML_FLOATS | ML_INTEGERS)
ONNX_PACKED = sorted(e for e in SUB_BYTE_BITS if not e.startswith("float6"))  # the sub-byte types ONNX tensors hold


def every_value(element: str) -> np.ndarray:
    """Every bit pattern of a type of at most 8 bits (NaNs and infinities included); a spread of bfloat16 ones."""
    dtype = numpy_dtype(element)
    if dtype.itemsize == 1:
        width = SUB_BYTE_BITS.get(element, 8)
        return np.arange(1 << width, dtype=np.uint8).view(dtype)
    return np.array([0, 1, -1, 1.5, -2.75, 3.0e38, -1.0e-38, np.inf, -np.inf, np.nan], np.float32).astype(dtype)


@pytest.mark.parametrize("element", ML_TYPES)
def test_raw_bits_round_trip(element: str) -> None:
    x = every_value(element).reshape(-1, 1)
    bits = raw_bits(x)
    assert bits.dtype == np.dtype(f"u{x.dtype.itemsize}") and bits.shape == x.shape
    back = from_raw_bits(bits, element)
    assert back.dtype == x.dtype
    assert np.array_equal(back.view(bits.dtype), x.view(bits.dtype))  # bit for bit, NaNs too


@pytest.mark.parametrize("element", ML_TYPES)
def test_bits_read_back_from_a_library_view(element: str) -> None:
    """What a library gives back (bfloat16 bits in a float16 array, float8 bits in uint8 or int8) reads as the same
    values."""
    x = every_value(element)
    view = raw_bits(x).view(np.float16 if x.dtype.itemsize == 2 else np.int8)
    assert np.array_equal(from_raw_bits(view, element).view(raw_bits(x).dtype), raw_bits(x))


def test_bfloat16_is_not_read_by_its_item_size() -> None:
    x = np.array([1.5, -2.0], ml_dtypes.bfloat16)
    assert raw_bits(x).tolist() == [0x3FC0, 0xC000]
    assert from_raw_bits(np.array([0x3FC0], np.uint16), "bfloat16").astype(np.float32).tolist() == [1.5]


@pytest.mark.parametrize("element", ONNX_PACKED)
def test_packed_is_onnx_raw_data(element: str) -> None:
    for count in (1, 2, 3, 7, 16):  # odd counts end in a padded byte
        x = np.resize(every_value(element), count)
        assert packed(x).tobytes() == numpy_helper.from_array(x).raw_data, count
        assert packed(x).size == packed_size(element, x.shape)


@pytest.mark.parametrize("element", sorted(SUB_BYTE_BITS))
def test_unpacked_inverts_packed(element: str) -> None:
    x = np.resize(every_value(element), (3, 5))
    back = unpacked(packed(x), element, x.shape)
    assert back.dtype == x.dtype and back.shape == x.shape
    assert np.array_equal(raw_bits(back), raw_bits(x))


def test_int4_values_unpack_signed() -> None:
    data = bytes([0xE1, 0x87])  # 1, -2, 7, -8: element 0 in the low nibble
    assert unpacked(data, "int4", (4,)).astype(np.int8).tolist() == [1, -2, 7, -8]
    assert unpacked(data, "uint4", (2, 2)).astype(np.uint8).tolist() == [[1, 14], [7, 8]]


def test_high_bits_a_library_leaves_are_not_the_element() -> None:
    x = from_raw_bits(np.array([0xFE], np.uint8), "int4")
    assert x.astype(np.int8).tolist() == [-2]
    assert x.view(np.uint8).tolist() == [0x0E]  # stored as ml_dtypes stores its own -2


def test_mistakes_are_bridge_errors() -> None:
    with pytest.raises(BridgeError, match="not an ml_dtypes type"):
        raw_bits(np.zeros(2, np.float32))
    with pytest.raises(BridgeError, match="2 byte"):
        from_raw_bits(np.zeros(2, np.uint8), "bfloat16")
    with pytest.raises(BridgeError, match="not a sub-byte type"):
        packed(np.zeros(2, ml_dtypes.bfloat16))
    with pytest.raises(BridgeError, match="need 2 bytes"):
        unpacked(b"\x00", "int4", (3,))
    assert ml_element(np.zeros(1, np.float32)) is None and ml_element(np.zeros(1, ml_dtypes.int4)) == "int4"


def test_finite_values_survive() -> None:
    low, high = finite_range("float8e4m3fn")
    x = np.array([low, high, 0.0], np.float32).astype(ml_dtypes.float8_e4m3fn)
    assert from_raw_bits(raw_bits(x), "float8e4m3fn").astype(np.float32).tolist() == [low, high, 0.0]
