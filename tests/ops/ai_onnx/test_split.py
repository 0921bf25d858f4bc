"""Split: the kernel against onnx.reference (lengths, equal parts by output count, num_outputs) and numpy (opset 1,
which nothing else runs), the shape formulas against onnx, every constraint, and the output count in the validator."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from hypothesis import HealthCheck, given, settings
from onnx import helper

from conformance.kernels.registry import run_kernel
from conformance.strategies import op_cases
from conformance.strategies.case import Case
from opset.validate import check_model
from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    i64,
    inferred,
    node_diagnostics,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
    version,
)

OP = "Split"
X = Seeded(1234).f32(6, 4)

CASES = [
    OracleCase(OP, dict(split=[2, 4]), [X], all_since(OP, 2, 12), n_out=2, id="lengths_attr"),
    OracleCase(OP, dict(axis=-1), [X], all_since(OP, 2, 17), n_out=2, id="equal"),
    OracleCase(OP, dict(axis=0), [X, i64(1, 0, 5)], all_since(OP, 13), n_out=3, id="lengths_input"),
    OracleCase(OP, dict(num_outputs=4), [X], all_since(OP, 18), n_out=4, id="num_outputs_uneven"),
    OracleCase(OP, dict(num_outputs=3, axis=1), [X], all_since(OP, 18), n_out=3, id="num_outputs_short"),
    # opset 1: lengths as an attribute, as an input typed like the data, or equal parts
    OracleCase(OP, dict(split=[5, 1]), [X], (1,), n_out=2, oracle=lambda: [X[:5], X[5:]], id="v1_attr"),
    OracleCase(OP, dict(axis=1), [X, np.array([3, 1], np.float32)], (1,), n_out=2,
               oracle=lambda: [X[:, :3], X[:, 3:]], id="v1_input"),
    OracleCase(OP, {}, [X], (1,), n_out=3, oracle=lambda: [X[0:2], X[2:4], X[4:6]], id="v1_equal"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [shape_case(OP, v, [[6, 4]], attrs, n_out) for v in (2, 11) for attrs, n_out in (
    ({"split": [2, 4]}, 2), ({}, 3), ({"axis": -1}, 2), ({"axis": 1, "split": [0, 1, 3]}, 3))]
SHAPES += [shape_case(OP, v, inputs, attrs, n_out) for v in (13, 18) for inputs, attrs, n_out in (
    ([[6, 4], i64(1, 0, 5)], {}, 3), ([[6, 4], i64(4)], {"axis": 1}, 1))]
SHAPES += [shape_case(OP, 13, [[6, 4]], {}, 2), shape_case(OP, 13, [[6, 4]], {"axis": 1}, 4)]
SHAPES += [shape_case(OP, 18, [[6, 4]], {"num_outputs": n, "axis": a}, n) for n, a in ((4, 0), (3, 1), (6, 0), (1, 1))]

REJECTED = [
    (shape_case(OP, 11, [[6, 4]], {"axis": 2}, 2), "split_c1"),
    (shape_case(OP, 2, [[6, 4]], {"split": [2, 3]}, 2), "split_c2"),
    (shape_case(OP, 11, [[6, 4]], {"split": [2, 4]}, 3), "split_c3"),
    (shape_case(OP, 11, [[6, 4]], {}, 4), "split_c4"),
    (shape_case(OP, 13, [[6, 4]], {}, 4), "split_c4"),
    (shape_case(OP, 13, [[6, 4], i64(2, 5)], {}, 2), "split_c2"),
    (shape_case(OP, 13, [[6, 4], i64(3, 3)], {}, 3), "split_c3"),
    (shape_case(OP, 18, [[6, 4], i64(7, -1)], {}, 2), "split_c8"),
    (shape_case(OP, 18, [[6, 4]], {}, 2), "split_c9"),
    (shape_case(OP, 18, [[6, 4], i64(3, 3)], {"num_outputs": 2}, 2), "split_c9"),
    (shape_case(OP, 18, [[6, 4]], {"num_outputs": 3}, 2), "split_c10"),
    (shape_case(OP, 18, [[5, 4]], {"num_outputs": 4}, 4), "split_c11"),
    (shape_case(OP, 11, [[6, 4]], {"split": [7, -1]}, 2), "attr_range"),
    (shape_case(OP, 18, [[6, 4]], {"num_outputs": 0}, 1), "attr_range"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_opset_1_constraints() -> None:
    from tests.helpers import problem_checks

    v = version("ai.onnx", OP, 1)
    both = problem_checks(v, [[6, 4], [2]], {"split": [3, 3]}, {"split_input": [3.0, 3.0]})
    assert "split_c5" in both
    assert "split_c7" in problem_checks(v, [[6, 4], [2]], {}, {"split_input": [3.0, 4.0]})
    assert "split_c8" in problem_checks(v, [[6, 4], [2]], {}, {"split_input": [7.0, -1.0]})


def test_without_the_output_count_equal_parts_stay_unknown() -> None:
    """Without lengths the parts depend on the node's output count: no count, no shapes, and no false problem."""
    result = inferred(version("ai.onnx", OP, 13), [[6, 4]])
    assert result.outputs == [None] and result.problems == []


def _split_model(opset: int, outputs: int, **attrs: object) -> onnx.ModelProto:
    x = helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, ["N", 6])
    names = [f"y{i}" for i in range(outputs)]
    graph = helper.make_graph([helper.make_node(OP, ["x"], names, axis=1, **attrs)], "g", [x],
                              [onnx.ValueInfoProto(name=n) for n in names])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def test_validator_splits_by_the_node_output_count() -> None:
    result = check_model(_split_model(13, 3))
    assert node_diagnostics(result.diagnostics) == []
    assert [[str(d) for d in result.facts[f"y{i}"].shape or ()] for i in range(3)] == [["N", "2"]] * 3


def test_validator_reports_an_uneven_count_and_a_mismatched_num_outputs() -> None:
    assert [d.check for d in node_diagnostics(check_model(_split_model(13, 4)).diagnostics)] == ["split_c4"]
    assert "split_c10" in [d.check for d in check_model(_split_model(18, 2, num_outputs=3)).diagnostics]
    # and no formula error
    assert [d.check for d in node_diagnostics(check_model(_split_model(18, 2)).diagnostics)] == ["split_c9"]


@pytest.mark.parametrize("since", [1, 2, 13, 18])
def test_drawn_cases_name_one_output_per_part(since: int) -> None:
    """Every drawn node has as many outputs as parts (the formula's count, or the drawn one for equal parts), the
    kernel gives them in the formula's shapes, and equal parts by output count are drawn before opset 18."""
    v = version("ai.onnx", OP, since)
    ways: set[str] = set()

    @settings(max_examples=40, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(case=op_cases(v, "float"))
    def draw(case: Case) -> None:
        outputs = run_kernel(v, case.inputs, case.attributes, len(case.output_names))
        assert len(outputs) == len(case.output_names) == len(case.expected_shapes)
        for got, want in zip(outputs, case.expected_shapes, strict=True):
            assert want is None or list(got.shape) == want, case
        given = case.node_attributes
        lengths = "split" in given or any(n in ("split", "split_input") for n in case.input_names)
        ways.add("lengths" if lengths else "num_outputs" if "num_outputs" in given else "equal")

    draw()
    assert ways == ({"lengths", "num_outputs"} if since >= 18 else {"lengths", "equal"}), ways
