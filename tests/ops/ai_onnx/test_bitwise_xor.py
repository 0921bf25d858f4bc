"""BitwiseXor: the kernel against onnx.reference and onnxruntime (bits of the whole range, the sign bit included),
the shape formula against onnx's shape inference, rejected nodes."""

from __future__ import annotations

import numpy as np

from opset.formula import Sym
from tests.helpers import (
    OracleCase,
    Seeded,
    ShapeCase,
    all_since,
    oracle_tests,
    rejection_tests,
    shape_tests,
    symbolic_shape,
)

OP = "BitwiseXor"
RAND = Seeded(3102)
TYPES = (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)


def data(dtype: type[np.integer], *shape: int) -> np.ndarray:
    """Values over the type's whole range (uint64 up to 2**63)."""
    info = np.iinfo(dtype)
    return RAND.rng.integers(max(info.min, -2**63), min(info.max, 2**63 - 1), shape, dtype=np.int64).astype(dtype)


CASES = [OracleCase(OP, {}, [data(t, 3, 4), data(t, 4)], all_since(OP), id=np.dtype(t).name) for t in TYPES]
CASES += [OracleCase(OP, {}, [data(t, 2, 1, 3), data(t, 4, 1)], all_since(OP), oracle="ort",
                     id=f"{np.dtype(t).name}_ort")
          for t in (np.int8, np.int64, np.uint16, np.uint64)]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def _case(shapes: list[list[int]]) -> ShapeCase:
    return ShapeCase(OP, 18, [np.zeros(s, np.int32) for s in shapes])


SHAPES = [_case([a, b]) for a, b in (([2, 3], [2, 3]), ([2, 1, 4], [3, 1]), ([], [5]), ([0, 3], [1, 3]))]

REJECTED = [(_case([[2, 3], [2]]), "bitwisexor_c1")]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_symbolic_batch_dim() -> None:
    assert symbolic_shape(OP, 18, [[Sym("N"), 1], [4]]) == ["N", "4"]
