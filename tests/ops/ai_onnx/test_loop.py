"""Loop: the kernel against onnx.reference and onnxruntime (trip counts, early stops, zero iterations, absent M or
cond, outer values), the shape formula against onnx, rejected nodes, and the validator inside bodies."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper

from opset.infer import infer_shapes
from opset.validate import check_model
from tests.helpers import OracleCase, all_since, node_diagnostics, oracle_tests, registry, rejection_tests, shape_tests
from tests.helpers.oracles import ShapeCase

OP = "Loop"
F = TensorProto.FLOAT


def _value(name: str, elem: int, shape: list[int] | None) -> onnx.ValueInfoProto:
    return helper.make_tensor_value_info(name, elem, shape)


def _const(name: str, value: float | list[float], shape: list[int]) -> onnx.NodeProto:
    data = value if isinstance(value, list) else [value]
    return helper.make_node("Constant", [], [name], value=helper.make_tensor(f"{name}_v", F, shape, data))


def counting_body(*, stop: float | None = None, add: str | None = None, scan: bool = True) -> onnx.GraphProto:
    """One carried float [2] x: x + 1 (+ the enclosing value `add`) each iteration; the condition goes on while the
    largest element of the new x is below `stop` (or passes the incoming one through); the scan output is the new x."""
    nodes = [_const("one", [1.0, 1.0], [2]), helper.make_node("Add", ["x_in", "one"], ["x_step"])]
    nodes.append(helper.make_node("Add", ["x_step", add], ["x_out"]) if add else
                 helper.make_node("Identity", ["x_step"], ["x_out"]))
    if stop is None:
        nodes.append(helper.make_node("Identity", ["c_in"], ["c_out"]))
    else:
        nodes += [helper.make_node("ReduceMax", ["x_out"], ["highest"], keepdims=0),
                  _const("stop", stop, []), helper.make_node("Less", ["highest", "stop"], ["c_out"])]
    outputs = [_value("c_out", TensorProto.BOOL, []), _value("x_out", F, [2])]
    if scan:
        nodes.append(helper.make_node("Identity", ["x_out"], ["s_out"]))
        outputs.append(_value("s_out", F, [2]))
    inputs = [_value("i", TensorProto.INT64, []), _value("c_in", TensorProto.BOOL, []), _value("x_in", F, [2])]
    return helper.make_graph(nodes, "body", inputs, outputs)


def iteration_body() -> onnx.GraphProto:
    """No carried value; the scan output is the iteration number (an int64 scalar)."""
    nodes = [helper.make_node("Identity", ["c_in"], ["c_out"]), helper.make_node("Identity", ["i"], ["s_out"])]
    return helper.make_graph(nodes, "body", [_value("i", TensorProto.INT64, []), _value("c_in", TensorProto.BOOL, [])],
                             [_value("c_out", TensorProto.BOOL, []), _value("s_out", TensorProto.INT64, [])])


def m(n: int) -> np.ndarray:
    return np.array(n, dtype=np.int64)


X = np.array([0.5, -1.0], dtype=np.float32)
GO, STOP = np.array(True), np.array(False)
EARLY = counting_body(stop=2.0)  # max(x) = 0.5 + 1, 2.5: the second iteration says stop
V11 = all_since(OP, 11)

CASES = [
    OracleCase(OP, {"body": counting_body()}, [m(3), GO, X], all_since(OP, 1, 1) + V11, n_out=2, id="trip_count"),
    OracleCase(OP, {"body": EARLY}, [m(5), GO, X], V11, n_out=2, id="early_stop"),
    OracleCase(OP, {"body": counting_body(add="in2")}, [m(2), GO, X], V11, n_out=2, id="reads_an_outer_value"),
    OracleCase(OP, {"body": counting_body(scan=False)}, [m(3), None, X], V11, oracle="ort", id="no_cond"),
    OracleCase(OP, {"body": EARLY}, [None, GO, X], V11, n_out=2, oracle="ort", id="no_trip_count"),
    OracleCase(OP, {"body": counting_body()}, [m(0), GO, X], V11, n_out=2, oracle="ort", id="zero_trips"),
    OracleCase(OP, {"body": counting_body()}, [m(-2), GO, X], V11, n_out=2, oracle="ort", id="negative_trips"),
    OracleCase(OP, {"body": counting_body()}, [m(3), STOP, X], V11, n_out=2, oracle="ort", id="false_cond"),
    OracleCase(OP, {"body": iteration_body()}, [m(4), GO], V11, oracle="ort", id="iteration_numbers"),
]

test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)

def typed(opset: int, inputs: list[np.ndarray | None], body: onnx.GraphProto, n_out: int = 1,
          constants: tuple[int, ...] = (), not_inferred: dict[int, list[int]] | None = None) -> ShapeCase:
    """A shape case over inputs of their own types (shape_case makes lists float32): arrays, none constant unless
    listed in `constants`."""
    return ShapeCase(OP, opset, inputs, {"body": body}, n_out, constants, dict(not_inferred or {}))


# onnx infers no shape for a final carried value (a carried value may change its shape between iterations); the
# formula gives the body's carried output's, which the body declares
CARRIED = {0: [2]}
SHAPES = [typed(opset, [m(3), GO, X], counting_body(), n_out=2, not_inferred=CARRIED) for opset in V11]
SHAPES += [
    typed(13, [m(3), None, X], counting_body(), n_out=2, constants=(0,), not_inferred=CARRIED),  # 3 trips
    typed(16, [m(2), GO, X], counting_body(scan=False), not_inferred=CARRIED),
    typed(19, [m(4), GO], iteration_body()),
]

REJECTED = [
    (typed(13, [None, None, X], counting_body(scan=False)), "loop_c1"),
    (typed(13, [np.array([2, 3]), GO, X], counting_body(scan=False)), "loop_c2"),
    (typed(13, [m(2), np.array([True, False]), X], counting_body(scan=False)), "loop_c3"),
    (typed(13, [m(2), GO, X, X], counting_body(scan=False), n_out=2), "graph_signature"),  # two carried, one in
]

test_shape_formula_matches_onnx = shape_tests(SHAPES)
test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_a_known_trip_count_sizes_the_scan_outputs() -> None:
    """M known and no cond: M iterations; M known and cond known false: none; otherwise an unknown count."""
    body = {"body": counting_body()}
    v = registry().resolve("ai.onnx", OP, 13)
    assert infer_shapes(v, [[], None, [2]], body, {"M": [3]}, output_count=2).outputs[0] == [2]
    scan = infer_shapes(v, [[], None, [2]], body, {"M": [3]}, output_count=2).outputs[1]
    assert scan == [3, 2]
    scan = infer_shapes(v, [[], [], [2]], body, {"M": [3], "cond": [False]}, output_count=2).outputs[1]
    assert scan == [0, 2]
    scan = infer_shapes(v, [[], [], [2]], body, {"M": [3], "cond": [True]}, output_count=2).outputs[1]
    assert scan is not None and not isinstance(scan[0], int) and scan[1] == 2


def _model(node: onnx.NodeProto, inputs: list[onnx.ValueInfoProto], opset: int = 13) -> onnx.ModelProto:
    graph = helper.make_graph([node], "g", inputs,
                              [helper.make_tensor_value_info(o, TensorProto.UNDEFINED, None) for o in node.output])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    return model


INPUTS = [_value("M", TensorProto.INT64, []), _value("c", TensorProto.BOOL, []), _value("x", F, [2])]


def test_body_inputs_take_their_types_from_the_node() -> None:
    """A body that declares no types for its carried input: the validator binds it from v_initial, so the body's
    nodes and the loop's outputs get types."""
    body = counting_body()
    body.input[2].type.Clear()
    result = check_model(_model(helper.make_node("Loop", ["M", "c", "x"], ["y", "s"], name="loop", body=body),
                                INPUTS))
    assert not [d for d in node_diagnostics(result.diagnostics) if d.is_error], node_diagnostics(result.diagnostics)
    assert result.facts["y"].type == "tensor(float)" and result.facts["s"].type == "tensor(float)"
    assert result.facts["y"].shape == (2,)


def test_a_carried_value_of_another_type_is_reported_in_the_body() -> None:
    body = counting_body()
    body.input[2].type.tensor_type.elem_type = TensorProto.DOUBLE
    result = check_model(_model(helper.make_node("Loop", ["M", "c", "x"], ["y", "s"], name="loop", body=body),
                                INPUTS))
    found = [d for d in result.diagnostics if d.check == "graph_signature"]
    assert found and found[0].graph == "loop.body" and "tensor(double)" in found[0].message, result.diagnostics


def test_a_problem_in_a_nested_body_is_located_by_its_path() -> None:
    """An If inside the Loop's body whose then-branch has a bad node: the diagnostic names both graphs."""
    bad = helper.make_graph([helper.make_node("Transpose", ["x_in"], ["t"], perm=[1, 0])], "bad", [],
                            [_value("t", F, None)])
    fine = helper.make_graph([helper.make_node("Identity", ["x_in"], ["e"])], "fine", [], [_value("e", F, None)])
    nodes = [helper.make_node("If", ["c_in"], ["x_out"], name="inner", then_branch=bad, else_branch=fine),
             helper.make_node("Identity", ["c_in"], ["c_out"])]
    body = helper.make_graph(nodes, "body", [_value("i", TensorProto.INT64, []), _value("c_in", TensorProto.BOOL, []),
                                             _value("x_in", F, [2])],
                             [_value("c_out", TensorProto.BOOL, []), _value("x_out", F, None)])
    result = check_model(_model(helper.make_node("Loop", ["M", "c", "x"], ["y"], name="loop", body=body), INPUTS))
    errors = [d for d in node_diagnostics(result.diagnostics) if d.is_error]
    assert errors and errors[0].graph == "loop.body/inner.then_branch", errors


def test_onnxruntime_follows_the_other_reading_without_cond() -> None:
    """M = 5, no cond, a body whose condition turns false in its second iteration: the registry runs all five
    iterations (onnx's text: the condition is then ignored), onnxruntime stops after two (reading loop_r1), which
    applies where cond is absent and M given, and nowhere else."""
    from tests.helpers.oracles import kernel_outputs, one_node_model, run_onnxruntime

    case = OracleCase(OP, {"body": EARLY}, [m(5), None, X], (13,), n_out=2)
    ours = kernel_outputs(case, 13)
    model, feeds = one_node_model(OP, 13, case.inputs, case.attrs, 2)
    theirs = run_onnxruntime(model, feeds)
    assert ours[1].shape == (5, 2) and theirs[1].shape == (2, 2)
    np.testing.assert_allclose(ours[1][:2], theirs[1])
    v = registry().resolve("ai.onnx", OP, 13)
    found = infer_shapes(v, [[], None, [2]], {"body": EARLY}, {"M": [5]}, output_count=2).readings
    assert [r.reading.id for r in found] == ["loop_r1"]
    assert infer_shapes(v, [[], [], [2]], {"body": EARLY}, {"M": [5]}, output_count=2).readings == []
