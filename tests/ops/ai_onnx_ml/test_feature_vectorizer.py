"""FeatureVectorizer: the kernel against onnxruntime (cut, padded, 1-D, every type) and onnx.reference, the
shape formula against onnxruntime, rejected nodes."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    Seeded,
    assert_shapes_match_onnxruntime,
    oracle_tests,
    rejection_tests,
    shape_case,
)

DOMAIN = "ai.onnx.ml"
OP = "FeatureVectorizer"
data = Seeded(46)
A, B = data.f32(3, 2), data.f32(3, 4)


def case(inputs: list[np.ndarray], dims: list[int], id: str, oracle: str = "ort") -> OracleCase:
    return OracleCase(OP, {"inputdimensions": dims}, list(inputs), (1,), oracle=oracle, id=id, domain=DOMAIN)


CASES = [
    case([A, B], [2, 4], "exact"),
    case([A, B], [1, 6], "cut_and_pad"),
    case([A], [0], "zero_width"),
    case([data.f32(4)], [6], "vector_is_one_row"),
    case([A.astype(np.float64), B.astype(np.float64)], [3, 2], "double"),
    case([data.ints(-9, 9, (2, 3), np.int64), data.ints(-9, 9, (2, 1), np.int64)], [3, 2], "int64"),
    case([data.ints(-9, 9, (2, 3), np.int32)], [2], "int32"),
    case([A, B, A], [2, 4, 1], "three_ref", oracle="ref"),
]

test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize(("inputs", "dims"), [
    pytest.param([A, B], [1, 6], id="v1-two"),
    pytest.param([data.f32(4), data.f32(5)], [4, 2], id="v1-vectors"),
])
def test_shape_formula_matches_onnxruntime(inputs: list[np.ndarray], dims: list[int]) -> None:
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, inputs, {"inputdimensions": dims})


REJECTED = [
    (shape_case(OP, 1, [[2, 3, 4]], {"inputdimensions": [12]}, domain=DOMAIN), "featurevectorizer_c1"),
    (shape_case(OP, 1, [[2, 3], [2, 1]], {"inputdimensions": [3]}, domain=DOMAIN), "featurevectorizer_c2"),
    (shape_case(OP, 1, [[2, 3]], {}, domain=DOMAIN), "featurevectorizer_c2"),
    (shape_case(OP, 1, [[2, 3], [3, 1]], {"inputdimensions": [3, 1]}, domain=DOMAIN), "featurevectorizer_c3"),
    (shape_case(OP, 1, [[2, 3], [3]], {"inputdimensions": [3, 3]}, domain=DOMAIN), "featurevectorizer_c3"),
    (shape_case(OP, 1, [[2, 3]], {"inputdimensions": [-1]}, domain=DOMAIN), "attr_range"),
]

test_invalid_node_reports_the_check = rejection_tests(REJECTED)
