"""If: the kernel against onnx.reference and onnxruntime, the shape formula against onnx (the chosen branch's shapes,
merged without the condition's value), rejected nodes, and subgraph diagnostics located in the branch."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper

from opset.validate import check_model
from tests.helpers import (
    OracleCase,
    all_since,
    node_diagnostics,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
)

OP = "If"


def _branch(name: str, values: list[np.ndarray], *, outer: str | None = None) -> onnx.GraphProto:
    """A branch giving constants (and, with `outer`, Identity of that enclosing value as its last output)."""
    nodes, outputs = [], []
    for k, x in enumerate(values):
        out = f"{name}_{k}"
        nodes.append(helper.make_node("Constant", [], [out], value=helper.make_tensor(
            f"{out}_v", helper.np_dtype_to_tensor_dtype(x.dtype), list(x.shape), x.reshape(-1).tolist())))
        outputs.append(helper.make_tensor_value_info(out, helper.np_dtype_to_tensor_dtype(x.dtype), list(x.shape)))
    if outer is not None:
        nodes.append(helper.make_node("Identity", [outer], [f"{name}_outer"]))
        outputs.append(helper.make_tensor_value_info(f"{name}_outer", TensorProto.BOOL, None))
    return helper.make_graph(nodes, name, [], outputs)


A = np.arange(6, dtype=np.float32).reshape(2, 3)
B = -np.arange(6, dtype=np.float32).reshape(2, 3)
C = np.arange(4, dtype=np.float32)
YES, NO = np.array(True), np.array([False])
SAME = {"then_branch": _branch("then", [A]), "else_branch": _branch("else", [B])}
DIFFERENT = {"then_branch": _branch("then", [A, C]), "else_branch": _branch("else", [C, A])}
READS_COND = {"then_branch": _branch("then", [A], outer="in0"), "else_branch": _branch("else", [B], outer="in0")}

CASES = [
    OracleCase(OP, SAME, [YES], all_since(OP), id="then"),
    OracleCase(OP, SAME, [NO], all_since(OP), id="else_one_element_cond"),
    OracleCase(OP, DIFFERENT, [NO], all_since(OP, 11), n_out=2, id="shapes_differ"),
    OracleCase(OP, READS_COND, [YES], all_since(OP), n_out=2, id="outer_value"),
    OracleCase(OP, READS_COND, [NO], all_since(OP, 11), n_out=2, oracle="ort", id="outer_value_ort"),
]

test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)

SHAPES = [shape_case(OP, opset, [[]], SAME) for opset in all_since(OP)]
SHAPES += [
    shape_case(OP, 11, [[1]], {"then_branch": _branch("then", [A, C]), "else_branch": _branch("else", [B, C[:2]])},
               n_out=2),  # merged where the condition is not known: [2, 3] and [?]
    shape_case(OP, 13, [YES], DIFFERENT, n_out=2, not_inferred_by_onnx={0: [2, 3], 1: [4]}),  # cond known
    shape_case(OP, 16, [NO], DIFFERENT, n_out=2, not_inferred_by_onnx={0: [4], 1: [2, 3]}),
    shape_case(OP, 19, [[]], {"then_branch": _branch("then", [A]), "else_branch": _branch("else", [B[:1]])}),
]

REJECTED = [
    (shape_case(OP, 13, [[2]], SAME), "if_c1"),  # two conditions
    (shape_case(OP, 13, [[]], {"then_branch": _branch("then", [A]),
                               "else_branch": _branch("else", [A.astype(np.int64)])}), "if_c2"),
    (shape_case(OP, 1, [[]], {"then_branch": _branch("then", [A]), "else_branch": _branch("else", [C])}), "if_c3"),
    (shape_case(OP, 13, [[]], DIFFERENT), "graph_signature"),  # the node has one output, the branches two
]

test_shape_formula_matches_onnx = shape_tests(SHAPES)
test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def _model(node: onnx.NodeProto, opset: int = 13) -> onnx.ModelProto:
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("c", TensorProto.BOOL, [])],
                              [helper.make_tensor_value_info(o, TensorProto.UNDEFINED, None) for o in node.output])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    return model


def test_the_validator_gives_outputs_the_branch_types_and_merged_shapes() -> None:
    node = helper.make_node("If", ["c"], ["y", "z"], name="choose", **DIFFERENT)
    result = check_model(_model(node))
    assert not [d for d in node_diagnostics(result.diagnostics) if d.is_error], node_diagnostics(result.diagnostics)
    assert result.facts["y"].type == "tensor(float)"
    assert result.facts["y"].shape is None  # ranks 2 and 1 merge to no shape
    node = helper.make_node("If", ["c"], ["y"], name="choose", then_branch=_branch("then", [A]),
                            else_branch=_branch("else", [A[:1]]))
    shape = check_model(_model(node)).facts["y"].shape
    assert shape is not None and shape[1] == 3 and not isinstance(shape[0], int)  # [2, 3] with [1, 3]


def test_a_problem_inside_a_branch_is_located_there() -> None:
    bad = helper.make_graph([helper.make_node("Transpose", ["c"], ["t"], perm=[1, 0])], "bad", [],
                            [helper.make_tensor_value_info("t", TensorProto.BOOL, None)])
    node = helper.make_node("If", ["c"], ["y"], name="choose", then_branch=bad,
                            else_branch=_branch("else", [np.array(True)]))
    found = [d for d in node_diagnostics(check_model(_model(node)).diagnostics) if d.is_error]
    assert found and found[0].graph == "choose.then_branch" and found[0].node_index == 0, found


def test_branches_of_different_types_are_reported_at_the_node() -> None:
    node = helper.make_node("If", ["c"], ["y"], name="choose", then_branch=_branch("then", [A]),
                            else_branch=_branch("else", [A.astype(np.float64)]))
    found = {(d.check, d.graph) for d in check_model(_model(node)).diagnostics if d.is_error}
    assert ("if_c2", "") in found, found


def test_a_branch_that_does_not_fit_the_signature_is_reported_inside_it() -> None:
    """The node has one output; the then-branch gives two: graph_signature, located in the branch."""
    node = helper.make_node("If", ["c"], ["y"], name="choose", then_branch=_branch("then", [A, C]),
                            else_branch=_branch("else", [B]))
    found = [d for d in check_model(_model(node)).diagnostics if d.check == "graph_signature"]
    assert [d.graph for d in found] == ["choose.then_branch"], found
    assert "has 2 outputs" in found[0].message
