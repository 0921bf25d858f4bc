"""Concat: the kernel against onnx.reference, the shape formula against onnx, rejected nodes and inputs, defaults."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    inferred,
    onnx_versions,
    oracle_tests,
    rejection_tests,
    run,
    shape_case,
    shape_tests,
    version,
)

OP = "Concat"
f32 = Seeded(1234).f32
X = f32(2, 3, 4, 5)

CASES = [
    OracleCase(OP, dict(axis=1), [X, f32(2, 1, 4, 5), f32(2, 2, 4, 5)], all_since(OP), id="axis1"),
    OracleCase(OP, dict(axis=-1), [X, f32(2, 3, 4, 2)], all_since(OP, 11), id="neg"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


@pytest.mark.parametrize(("attrs", "inputs", "message"), [
    pytest.param(dict(axis=3), [f32(2, 3)], "axis", id="axis_out_of_range"),
])
def test_kernel_rejects_invalid_input(attrs: dict[str, Any], inputs: list[np.ndarray], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run("ai.onnx", OP, onnx_versions(OP)[-1], inputs, **attrs)


SHAPES = [
    shape_case(OP, 4, [[2, 3], [5, 3]], {"axis": 0}),
    shape_case(OP, 11, [[2, 3], [2, 4], [2, 1]], {"axis": -1}),
    shape_case(OP, 13, [[1, 2, 3]], {"axis": 2}),
    shape_case(OP, 13, [[1, 2, 3], [1, 2, 3]], {"axis": -3}),
    shape_case(OP, 1, [[2, 3], [2, 4]], {}, not_inferred_by_onnx={0: [2, 7]}),
]

REJECTED = [
    (shape_case(OP, 4, [[2, 3], [2, 3]], {"axis": -1}), "concat_c2"),
    (shape_case(OP, 13, [[2, 3], [2, 3]], {"axis": 2}), "concat_c2"),
    (shape_case(OP, 13, [[2, 3], [2, 3, 1]], {"axis": 0}), "concat_c1"),
    (shape_case(OP, 13, [[2, 3], [3, 4]], {"axis": 1}), "concat_c3"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_default_axis_at_opset_1() -> None:
    assert inferred(version("ai.onnx", OP, 1), [[2, 3], [2, 3]]).attributes["axis"] == 1
