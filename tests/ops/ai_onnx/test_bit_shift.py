"""BitShift: the kernel against onnx.reference and onnxruntime (signed types and out-of-range amounts from
version 28; version 11's out-of-range amounts read the same way), the shape formula against onnx's shape
inference, rejected nodes."""

from __future__ import annotations

import numpy as np
import pytest

from opset.formula import Sym
from tests.helpers import (
    OracleCase,
    Seeded,
    ShapeCase,
    kernel,
    oracle_tests,
    rejection_tests,
    shape_tests,
    symbolic_shape,
)

OP = "BitShift"
RAND = Seeded(2028)
UNSIGNED = (np.uint8, np.uint16, np.uint32, np.uint64)
SIGNED = (np.int8, np.int16, np.int32, np.int64)


def _data(dtype: type[np.integer], *, signed_amounts: bool) -> list[np.ndarray]:
    """Values over the type's range, amounts from -2 (signed) or 0 to past the width, broadcast [3, 4] by [4]."""
    info, bits = np.iinfo(dtype), 8 * np.dtype(dtype).itemsize
    x = RAND.rng.integers(max(info.min, -2**63), min(info.max, 2**63 - 1), (3, 4), dtype=np.int64).astype(dtype)
    y = RAND.ints(-2 if signed_amounts else 0, bits + 2, (4,), np.int64).astype(dtype)
    return [x, y]


CASES = [
    OracleCase(OP, dict(direction=d), _data(t, signed_amounts=False), (11, 28), id=f"{d.lower()}_{np.dtype(t).name}")
    for t in UNSIGNED for d in ("LEFT", "RIGHT")
]
CASES += [
    OracleCase(OP, dict(direction=d), _data(t, signed_amounts=True), (28,), id=f"{d.lower()}_{np.dtype(t).name}")
    for t in SIGNED for d in ("LEFT", "RIGHT")
]
CASES += [
    OracleCase(OP, dict(direction=d), _data(t, signed_amounts=t in SIGNED), (28,), oracle="ort",
               id=f"{d.lower()}_{np.dtype(t).name}_ort")
    for t in (np.uint8, np.int8, np.int32, np.uint64) for d in ("LEFT", "RIGHT")
]
CASES += [OracleCase(OP, dict(direction="LEFT"), _data(np.uint32, signed_amounts=False), (11,), oracle="ort",
                     id="left_uint32_v11_ort")]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def test_out_of_range_amounts_leave_the_sign_fill() -> None:
    x = np.array([-100, 100, -1, 7], np.int8)
    y = np.array([8, 8, -1, 200 - 256], np.int8)
    assert kernel("ai.onnx", OP, 28)(x, y, direction="RIGHT")[0].tolist() == [-1, 0, -1, 0]
    assert kernel("ai.onnx", OP, 28)(x, y, direction="LEFT")[0].tolist() == [0, 0, 0, 0]


def _case(opset: int, shapes: tuple[list[int], list[int]], attrs: dict[str, object]) -> ShapeCase:
    dtype = np.uint8 if opset == 11 else np.int32
    return ShapeCase(OP, opset, [np.zeros(s, dtype) for s in shapes], dict(attrs))


SHAPES = [_case(opset, shapes, {"direction": d}) for opset in (11, 28) for d in ("LEFT", "RIGHT")
          for shapes in (([2, 3], [2, 3]), ([2, 1, 4], [3, 1]), ([], [5]))]

REJECTED = [(_case(opset, ([2, 3], [2]), {"direction": "LEFT"}), "bitshift_c1") for opset in (11, 28)]
REJECTED += [(_case(opset, ([2], [2]), {"direction": "UP"}), "attr_allowed") for opset in (11, 28)]
REJECTED += [(_case(28, ([2], [2]), {}), "attr_required")]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


@pytest.mark.parametrize("opset", [11, 28])
def test_symbolic_batch_dim(opset: int) -> None:
    assert symbolic_shape(OP, opset, [[Sym("N"), 3], [1]], {"direction": "LEFT"}) == ["N", "3"]
