"""Shape: the kernel against onnx.reference (start and end clamped), the shape formula against onnx, symbolic dims."""

from __future__ import annotations

import numpy as np

from opset.formula import Sym
from tests.helpers import OracleCase, all_since, node_diagnostics, oracle_tests, shape_case, shape_tests, symbolic_shape

OP = "Shape"
X = np.zeros((2, 3, 4, 5), np.float32)

CASES = [
    OracleCase(OP, {}, [X], all_since(OP), id="all"),
    OracleCase(OP, {}, [np.zeros((), np.int8)], all_since(OP), id="scalar"),
    OracleCase(OP, dict(start=1, end=-1), [X], all_since(OP, 15), id="start_end"),
    OracleCase(OP, dict(start=-10, end=10), [X], all_since(OP, 15), id="clamped"),
    OracleCase(OP, dict(start=3, end=1), [X], all_since(OP, 15), id="empty"),
    OracleCase(OP, dict(end=-3), [X], all_since(OP, 15), id="end_only"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [shape_case(OP, v, [shape]) for v in (1, 13, 15, 25) for shape in ([2, 3, 4], [], [0])]
SHAPES += [shape_case(OP, 15, [[2, 3, 4, 5]], attrs) for attrs in (
    {"start": -1}, {"end": -1}, {"start": 1, "end": 2}, {"start": -10, "end": 10}, {"start": 3, "end": 1},
    {"start": 5}, {"end": -7})]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


def test_symbolic_dims_keep_the_rank() -> None:
    assert symbolic_shape(OP, 15, [[Sym("N"), 3, Sym("W")]], {"start": 1}) == ["2"]


def test_values_reach_a_reshape_through_cast() -> None:
    """Shape's values, carried through Cast to int32 and back, give Reshape its shape; symbolic ones reach Expand."""
    from onnx import TensorProto, helper

    from opset.validate import check_model
    from opset.validate.values import value_entry

    nodes = [helper.make_node(OP, ["x"], ["s"], start=1), helper.make_node("Cast", ["s"], ["s32"], to=6),
             helper.make_node("Cast", ["s32"], ["s64"], to=7), helper.make_node("Reshape", ["y", "s64"], ["z"]),
             helper.make_node(OP, ["x"], ["all"]), helper.make_node("Expand", ["w", "all"], ["v"])]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3, 4]),
                                           helper.make_tensor_value_info("y", TensorProto.FLOAT, [12]),
                                           helper.make_tensor_value_info("w", TensorProto.FLOAT, [1])],
                              [helper.make_tensor_value_info(n, TensorProto.FLOAT, None) for n in ("z", "v")])
    result = check_model(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)]))
    assert not node_diagnostics(result.diagnostics), node_diagnostics(result.diagnostics)
    assert value_entry(result.facts["z"])["shape"] == [3, 4]
    assert value_entry(result.facts["v"])["shape"] == ["N", 3, 4]
