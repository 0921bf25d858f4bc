"""ArrayFeatureExtractor: the kernel against onnxruntime and onnx.reference, the shape formula against onnx and
onnxruntime, rejected nodes."""

from __future__ import annotations

import numpy as np
import pytest

from opset.formula import Sym
from tests.helpers import (
    OracleCase,
    Seeded,
    assert_shapes_match_onnxruntime,
    i64,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
    symbolic_shape,
)

DOMAIN = "ai.onnx.ml"
OP = "ArrayFeatureExtractor"
data = Seeded(41)
X3 = data.f32(2, 3, 4)
WORDS = np.array([["a", "b", "c"], ["d", "e", "f"]], dtype=object)


def case(inputs: list[np.ndarray | None], id: str, oracle: str = "ort") -> OracleCase:
    return OracleCase(OP, {}, inputs, (1,), oracle=oracle, id=id, domain=DOMAIN)


CASES = [
    case([X3, i64(3, 0, 3)], "rank3_repeat"),
    case([X3, np.array([[3, 0], [1, 1]], np.int64)], "indices_2d_flatten"),
    case([X3, np.array(2, np.int64)], "scalar_index"),
    case([data.f32(5), i64(4, 1)], "vector_is_one_row"),
    case([data.ints(-9, 9, (3, 4), np.int64), i64(0, 2)], "int64"),
    case([data.ints(-9, 9, (3, 4), np.int32), i64(1)], "int32"),
    case([data.f32(2, 3).astype(np.float64), i64(2, 1, 0)], "double"),
    case([WORDS, i64(2, 0)], "strings"),
    case([WORDS, i64(1)], "strings_ref", oracle="ref"),
    case([X3, i64(3, 0, 3)], "rank3_ref", oracle="ref"),
    case([data.f32(5), i64(4, 1)], "vector_ref", oracle="ref"),
]

test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)

# onnx's inference leaves a 1-D X unshaped; those cases are checked against onnxruntime below
SHAPES = [
    shape_case(OP, 1, [[2, 3, 4], i64(3, 0)], domain=DOMAIN),
    shape_case(OP, 1, [[2, 5], np.array([[1, 2, 3]], np.int64)], domain=DOMAIN),
    shape_case(OP, 1, [[4, 2], np.array([[1], [0]], np.int64)], domain=DOMAIN),
]

test_shape_formula_matches_onnx = shape_tests(SHAPES)


@pytest.mark.parametrize(("x", "y"), [
    pytest.param(data.f32(5), i64(4, 1, 0), id="v1-vector"),
    pytest.param(data.f32(3, 5), np.array(2, np.int64), id="v1-scalar_index"),
    pytest.param(data.f32(2, 2, 5), np.array([[1, 2], [3, 4]], np.int64), id="v1-indices_2d"),
])
def test_shape_formula_matches_onnxruntime(x: np.ndarray, y: np.ndarray) -> None:
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, [x, y])


REJECTED = [
    (shape_case(OP, 1, [[2, 3], i64(0, 3)], domain=DOMAIN), "arrayfeatureextractor_c1"),
    (shape_case(OP, 1, [[2, 3], i64(-1)], domain=DOMAIN), "arrayfeatureextractor_c1"),
    (shape_case(OP, 1, [[], i64(0)], domain=DOMAIN), "rank"),
]

test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_symbolic_batch() -> None:
    assert symbolic_shape(OP, 1, [[Sym("N"), 7], [Sym("K")]], domain=DOMAIN) == ["N", "K"]
    assert symbolic_shape(OP, 1, [[7], [2, 3]], domain=DOMAIN) == ["1", "6"]
