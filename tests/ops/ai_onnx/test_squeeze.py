"""Squeeze: the kernel against onnx.reference, shape formulas against onnx, rejected nodes and inputs."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from opset.formula import Sym
from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    i64,
    onnx_versions,
    oracle_tests,
    rejection_tests,
    run,
    shape_case,
    shape_tests,
    symbolic_shape,
)

OP = "Squeeze"
f32 = Seeded(1234).f32

CASES = [
    OracleCase(OP, dict(axes=[0]), [f32(1, 3, 1, 2)], all_since(OP, 1, 12), id="attr"),
    OracleCase(OP, {}, [f32(1, 3, 1, 2)], all_since(OP), id="all"),
    OracleCase(OP, {}, [f32(1, 3, 1, 2), i64(-2)], all_since(OP, 13), id="input"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


@pytest.mark.parametrize(("attrs", "inputs", "message"), [
    pytest.param({}, [f32(2, 3), i64(0)], "size 1", id="not_size_1"),
])
def test_kernel_rejects_invalid_input(attrs: dict[str, Any], inputs: list[np.ndarray], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run("ai.onnx", OP, onnx_versions(OP)[-1], inputs, **attrs)


ATTR_OPSETS, INPUT_OPSETS = (1, 11), (13, 21, 23, 25)
SHAPES = [shape_case(OP, opset, [[1, 3, 1, 2]], attrs) for opset in ATTR_OPSETS
          for attrs in ({}, {"axes": [2]}, {"axes": [0, 2]}, *([{"axes": [-2]}] if opset == 11 else []))]
SHAPES += [shape_case(OP, opset, inputs) for opset in INPUT_OPSETS
           for inputs in ([[1, 3, 1, 2]], [[1, 3, 1, 2], i64(0, -2)], [[1, 1], i64(1)])]

REJECTED = [(shape_case(OP, 11, [[1, 3]], {"axes": [-3]}), "squeeze_c1")]
REJECTED += [(shape_case(OP, opset, [[1, 3]], {"axes": axes}), check) for opset in ATTR_OPSETS
             for axes, check in (([1], "squeeze_c2"), ([2], "squeeze_c1"))]
REJECTED += [(shape_case(OP, opset, [[1, 3], i64(axis)]), check) for opset in INPUT_OPSETS
             for axis, check in ((1, "squeeze_c2"), (-3, "squeeze_c1"))]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_symbolic_dim_compared_with_1_leaves_the_shape_unknown() -> None:
    """A formula that needs to compare a symbolic dim with 1 leaves the shape unknown instead of guessing."""
    assert symbolic_shape(OP, 13, [[Sym("N"), 1, 3]]) is None
