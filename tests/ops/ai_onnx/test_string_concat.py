"""StringConcat: the kernel against onnx.reference and onnxruntime, the shape formula against onnx's shape
inference, rejected nodes."""

from __future__ import annotations

import numpy as np

from tests.helpers import OracleCase, all_since, oracle_tests, rejection_tests, shape_case, shape_tests, strs

OP = "StringConcat"
V = all_since(OP)
ROW = strs("a", "", "é中", "x y")
GRID = strs("1", "22", "", "\U0001f600", "b", "c", shape=(3, 2))

CASES = [
    OracleCase(OP, {}, [ROW, strs("-", "+", "", "z")], V, id="same"),
    OracleCase(OP, {}, [GRID, strs("!", "?")], V, id="row_bcast"),
    OracleCase(OP, {}, [strs("p", "q", "r", shape=(3, 1)), strs("x", "yy", shape=(1, 2))], V, id="outer",
               oracle="ort"),
    OracleCase(OP, {}, [strs("only", shape=()), GRID], V, id="scalar"),
    OracleCase(OP, {}, [np.empty((0, 2), dtype=object), strs("a", "b")], V, id="empty", oracle="ort"),
]

test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def test_a_scalar_result_is_a_string_tensor() -> None:
    from tests.helpers import run

    (z,) = run("ai.onnx", OP, 20, [strs("ab", shape=()), strs("c", shape=())])
    assert z.dtype == object and z.shape == () and z.item() == "abc"


SHAPES = [
    shape_case(OP, 20, [[3, 1], [4]], dtype=object),
    shape_case(OP, 20, [[], [2, 5]], dtype=object),
    shape_case(OP, 20, [[2, 3], [2, 3]], dtype=object),
]
REJECTED = [
    (shape_case(OP, 20, [[3], [4]], dtype=object), "stringconcat_c1"),
]

test_shape_formula_matches_onnx = shape_tests(SHAPES)
test_invalid_node_reports_the_check = rejection_tests(REJECTED)
