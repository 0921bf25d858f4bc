"""Expand: the kernel against onnx.reference, the data-dependent shape formula against onnx, rejected targets,
unknown and symbolic shapes."""

from __future__ import annotations

import numpy as np

from opset.formula import Sym
from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    i64,
    inferred,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
    symbolic_shape,
    version,
)

OP = "Expand"
RAND = Seeded(1234)
X = RAND.f32(3, 1)

CASES = [
    OracleCase(OP, {}, [X, i64(2, 1, 4)], all_since(OP), id="grow"),
    OracleCase(OP, {}, [X, i64(1)], all_since(OP), id="shorter"),
    OracleCase(OP, {}, [RAND.ints(-9, 9, (1, 2), np.int16), i64(0, 2)], all_since(OP), id="zero"),
    OracleCase(OP, {}, [np.array(True), i64(2, 2)], all_since(OP), id="scalar_bool"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [shape_case(OP, v, [data, target]) for v in (8, 13) for data, target in (
    ([3, 1], i64(2, 1, 4)), ([3, 1], i64(1)), ([2, 3], i64(3)), ([], i64(2, 2)), ([1, 4], i64(0, 1)), ([2], i64()))]
REJECTED = [
    (shape_case(OP, 13, [[2, 3], i64(-1, 3)]), "expand_c1"),
    (shape_case(OP, 13, [[2, 3], i64(4, 3)]), "expand_c2"),
    (shape_case(OP, 8, [[2, 3], i64(2)]), "expand_c2"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_unknown_target_keeps_what_the_input_decides() -> None:
    """Without the target's values the output has the target's rank; a dim the input holds above 1 stays (the
    target there is 1 or the same), the others are unknown (as onnx's shape inference has it)."""
    result = inferred(version("ai.onnx", OP, 13), [[3, 1], [2]])
    assert result.problems == []
    (shape,) = result.outputs
    assert shape is not None and shape[0] == 3 and str(shape[1]).startswith("?")


def test_symbolic_dim_against_a_one() -> None:
    assert symbolic_shape(OP, 13, [[Sym("N"), 1], [2]], values={"shape": [1, 5]}) == ["N", "5"]
