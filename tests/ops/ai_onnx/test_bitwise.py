"""BitwiseAnd, BitwiseOr, BitwiseXor, one table: each kernel against onnx.reference and onnxruntime (bits of the
whole range, the sign bit included), the shape formula against onnx's shape inference, rejected nodes."""

from __future__ import annotations

import numpy as np
import pytest

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

OPS = ("BitwiseAnd", "BitwiseOr", "BitwiseXor")
SEEDS = {"BitwiseAnd": 3100, "BitwiseOr": 3101, "BitwiseXor": 3102}
TYPES = (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)


def cases(op: str) -> list[OracleCase]:
    rand = Seeded(SEEDS[op])

    def data(dtype: type[np.integer], *shape: int) -> np.ndarray:
        """Values over the type's whole range (uint64 up to 2**63)."""
        info = np.iinfo(dtype)
        return rand.rng.integers(max(info.min, -2**63), min(info.max, 2**63 - 1), shape,
                                 dtype=np.int64).astype(dtype)

    rows = [OracleCase(op, {}, [data(t, 3, 4), data(t, 4)], all_since(op), id=np.dtype(t).name) for t in TYPES]
    return rows + [OracleCase(op, {}, [data(t, 2, 1, 3), data(t, 4, 1)], all_since(op), oracle="ort",
                              id=f"{np.dtype(t).name}_ort") for t in (np.int8, np.int64, np.uint16, np.uint64)]


CASES = [c for op in OPS for c in cases(op)]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OPS, CASES)


def _case(op: str, shapes: list[list[int]]) -> ShapeCase:
    return ShapeCase(op, 18, [np.zeros(s, np.int32) for s in shapes])


SHAPES = [_case(op, [a, b]) for op in OPS for a, b in (([2, 3], [2, 3]), ([2, 1, 4], [3, 1]), ([], [5]),
                                                        ([0, 3], [1, 3]))]

REJECTED = [(_case(op, [[2, 3], [2]]), f"{op.lower()}_c1") for op in OPS]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


@pytest.mark.parametrize("op", OPS)
def test_symbolic_batch_dim(op: str) -> None:
    assert symbolic_shape(op, 18, [[Sym("N"), 1], [4]]) == ["N", "4"]
