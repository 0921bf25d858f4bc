"""Unsqueeze: the kernel against onnx.reference/onnxruntime, shape formulas against onnx, examples, rejections."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    assert_examples_match_kernel_and_formula,
    assert_versions_exercised,
    i64,
    inferred,
    oracle_tests,
    rejection_tests,
    run,
    shape_case,
    shape_tests,
    version,
)

OP = "Unsqueeze"
f32 = Seeded(2024).f32
X = f32(2, 3, 4)

RTOL = 1e-6  # OracleCase takes it for atol too: at least as strict as the former rtol=1e-5, atol=1e-6
CASES = [
    OracleCase(OP, dict(axes=[0, 4]), [X], all_since(OP, 1, 12), rtol=RTOL, id="attr"),
    # the reference expands the axes one by one in the given order, which the spec says must not matter
    OracleCase(OP, dict(axes=[2, 1]), [X], all_since(OP, 1, 12), oracle="ort", rtol=RTOL, id="unsorted"),
    OracleCase(OP, dict(axes=[-1, -5]), [X], all_since(OP, 11, 12), oracle="ort", rtol=RTOL, id="negative"),
    OracleCase(OP, {}, [X, i64(0, 4)], all_since(OP, 13), rtol=RTOL, id="input"),
    OracleCase(OP, {}, [X, i64(-1, 1, -6)], all_since(OP, 13), rtol=RTOL, id="negative"),
    OracleCase(OP, {}, [np.array(2.5, np.float32), i64(0)], all_since(OP, 13), rtol=RTOL, id="scalar"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def test_every_version_has_a_kernel_case() -> None:
    assert_versions_exercised(OP, {v for c in CASES for v in c.since})


@pytest.mark.parametrize(("opset", "inputs", "attrs", "message"), [
    pytest.param(11, [f32(2, 3)], {"axes": [3]}, "out of range", id="v11-axis_out_of_range"),
    pytest.param(13, [f32(2, 3), i64(1, -3)], {}, "repeated", id="v13-repeated_axis"),
])
def test_kernel_rejects_invalid_input(opset: int, inputs: list[np.ndarray | None], attrs: dict[str, Any],
                                      message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run("ai.onnx", OP, opset, inputs, **attrs)


def test_examples_match_kernel_and_formula() -> None:
    assert_examples_match_kernel_and_formula("ai.onnx", OP)


# axes: an attribute up to 12 (negative ones from 11), a constant input from 13
SHAPES = [shape_case(OP, v, [[2, 3, 4]], {"axes": axes}) for v in all_since(OP, 1, 12)
          for axes in ([0], [4, 0], [1, 2, 5], [3])]
SHAPES += [shape_case(OP, v, [[2, 3, 4]], {"axes": axes}) for v in all_since(OP, 11, 12) for axes in ([-1], [-5, 2])]
SHAPES += [shape_case(OP, v, inputs) for v in all_since(OP, 13) for inputs in (
    [[2, 3, 4], i64(0)], [[2, 3, 4], i64(-1, 0)], [[2, 3, 4], i64(1, -2, 5)], [[], i64(0, -1)])]

REJECTED = [
    (shape_case(OP, 1, [[2, 3]], {"axes": [1, 1]}), "unsqueeze_c2"),
    (shape_case(OP, 11, [[2, 3]], {"axes": [-4]}), "unsqueeze_c1"),
    (shape_case(OP, 13, [[2, 3], i64(0, -4)]), "unsqueeze_c2"),
    (shape_case(OP, 13, [[2, 3], i64(3)]), "unsqueeze_c1"),
    (shape_case(OP, 1, [[2, 3]], {"axes": [-1]}), "attr_range"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_shape_is_unknown_without_the_axes_values() -> None:
    result = inferred(version("ai.onnx", OP, 13), [[2, 3], [1]])
    assert result.outputs == [None], f"{OP}@13: {result.outputs} without values"
    assert not result.problems, f"{OP}@13: {result.problems}"
