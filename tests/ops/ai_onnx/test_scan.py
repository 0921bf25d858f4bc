"""Scan: the kernel against onnx.reference and onnxruntime (directions, axes, several scan inputs, opset 8's batches
and sequence lengths), the shape formula against onnx, and rejected nodes."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper

from opset.validate import check_model
from tests.helpers import OracleCase, Seeded, all_since, node_diagnostics, oracle_tests, rejection_tests, shape_tests
from tests.helpers.oracles import ShapeCase

OP = "Scan"
F = TensorProto.FLOAT
f32 = Seeded(808).f32


def _value(name: str, shape: list[int] | None, elem: int = F) -> onnx.ValueInfoProto:
    return helper.make_tensor_value_info(name, elem, shape)


def sum_body(shape: list[int], *, outputs: int = 1) -> onnx.GraphProto:
    """State s and one scan element e of `shape`: s + e is the next state; the scan outputs are that sum and
    (with outputs=2) e - s, which depends on the order the elements come in."""
    nodes = [helper.make_node("Add", ["s", "e"], ["s_out"]), helper.make_node("Identity", ["s_out"], ["sum"])]
    outs = [_value("s_out", shape), _value("sum", shape)]
    if outputs == 2:
        nodes.append(helper.make_node("Sub", ["e", "s"], ["diff"]))
        outs.append(_value("diff", shape))
    return helper.make_graph(nodes, "body", [_value("s", shape), _value("e", shape)], outs)


def zip_body(shape: list[int]) -> onnx.GraphProto:
    """No state; two scan elements of `shape`: the scan output is their difference a - b."""
    nodes = [helper.make_node("Sub", ["a", "b"], ["d"])]
    return helper.make_graph(nodes, "body", [_value("a", shape), _value("b", shape)], [_value("d", shape)])


S0 = np.array([1.0, -1.0], dtype=np.float32)
X = f32(4, 2)  # four elements of [2] along axis 0
XT = np.ascontiguousarray(X.T)  # the same along axis 1
V9 = all_since(OP, 9)
V11 = all_since(OP, 11)
SUM = {"body": sum_body([2]), "num_scan_inputs": 1}
SUM2 = {"body": sum_body([2], outputs=2), "num_scan_inputs": 1}


def _empty_scan() -> list[np.ndarray]:
    """A zero-length sequence: no iteration, so the initial state and an empty stack (what onnx's text gives)."""
    return [S0, np.zeros((0, 2), np.float32)]


CASES = [
    OracleCase(OP, SUM, [S0, X], V9, n_out=2, id="forward"),
    OracleCase(OP, {**SUM2, "scan_input_directions": [1]}, [S0, X], V9, n_out=3, oracle="ort", id="reverse_input"),
    OracleCase(OP, {**SUM2, "scan_output_directions": [1, 0]}, [S0, X], V9, n_out=3, oracle="ort",
               id="prepended_output"),
    OracleCase(OP, {**SUM, "scan_input_axes": [1]}, [S0, XT], V9, n_out=2, oracle="ort", id="input_axis_1"),
    OracleCase(OP, {**SUM, "scan_input_axes": [-1]}, [S0, XT], V11, n_out=2, oracle="ort", id="negative_axis"),
    OracleCase(OP, {**SUM, "scan_output_axes": [1]}, [S0, X], V9, n_out=2, oracle="ort", id="output_axis_1"),
    OracleCase(OP, {**SUM, "scan_output_axes": [-1]}, [S0, X], V11, n_out=2, oracle="ort", id="negative_out_axis"),
    OracleCase(OP, {"body": zip_body([2]), "num_scan_inputs": 2, "scan_input_directions": [0, 1]}, [X, X], V9,
               oracle="ort", id="zip_both_ways"),
    OracleCase(OP, SUM, [S0, np.zeros((0, 2), np.float32)], V9, n_out=2, oracle=_empty_scan, id="zero_length"),
    OracleCase(OP, SUM, [None, S0[None], X[None]], (8,), n_out=2, oracle="ort", id="batched"),
    OracleCase(OP, {**SUM2, "directions": [1]}, [np.array([4, 2], np.int64), np.stack([S0, S0]), np.stack([X, X])],
               (8,), n_out=3, oracle="ort", id="sequence_lens_reverse"),
]

test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def typed(opset: int, inputs: list[np.ndarray | None], attrs: dict[str, object], n_out: int = 1,
          constants: tuple[int, ...] = ()) -> ShapeCase:
    return ShapeCase(OP, opset, inputs, attrs, n_out, constants)


SHAPES = [typed(opset, [S0, X], SUM, n_out=2) for opset in V9]
SHAPES += [
    typed(11, [S0, XT], {**SUM, "scan_input_axes": [-1], "scan_output_axes": [1]}, n_out=2),
    typed(16, [X, X], {"body": zip_body([2]), "num_scan_inputs": 2, "scan_output_axes": [-1]}),
    typed(8, [None, S0[None], X[None]], SUM, n_out=2),
    typed(8, [np.array([3, 1], np.int64), np.stack([S0, S0]), np.stack([X, X])], SUM2, n_out=3),
]

REJECTED = [
    (typed(11, [S0, X], {**SUM, "num_scan_inputs": 3}, n_out=2), "scan_c1"),
    (typed(11, [S0, np.array(1, np.float32)], SUM, n_out=2), "scan_c2"),
    (typed(9, [S0, X], {**SUM, "scan_input_axes": [2]}, n_out=2), "scan_c3"),
    (typed(11, [S0, X], {**SUM, "scan_input_axes": [-3]}, n_out=2), "scan_c3"),
    (typed(11, [X, X[:3]], {"body": zip_body([2]), "num_scan_inputs": 2}), "scan_c4"),
    (typed(11, [S0, X], {**SUM, "scan_output_axes": [2]}, n_out=2), "scan_c5"),
    (typed(8, [None, S0[None], np.stack([X, X])], SUM, n_out=2), "scan_c3"),  # batch 1 against 2
    (typed(8, [np.array([3, 1, 2], np.int64), np.stack([S0, S0]), np.stack([X, X])], SUM, n_out=2), "scan_c5"),
    (typed(8, [np.array([3, 5], np.int64), np.stack([S0, S0]), np.stack([X, X])], SUM, n_out=2, constants=(0,)),
     "scan_c6"),
    (typed(11, [S0, X], {"body": sum_body([3]), "num_scan_inputs": 1}, n_out=2), "graph_signature"),
]

test_shape_formula_matches_onnx = shape_tests(SHAPES)
test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_the_validator_binds_scan_elements_without_their_scan_axis() -> None:
    """A body declaring no shapes: its element input gets the scan input's shape without the scan axis, and the
    scan output the sequence length at its output axis."""
    body = sum_body([2])
    for vi in [*body.input, *body.output]:
        vi.type.tensor_type.ClearField("shape")
    node = helper.make_node("Scan", ["s0", "x"], ["s", "y"], name="scan", body=body, num_scan_inputs=1,
                            scan_input_axes=[1], scan_output_axes=[1])
    graph = helper.make_graph([node], "g", [_value("s0", [2]), _value("x", [2, 5])],
                              [_value("s", None), _value("y", None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 16)])
    result = check_model(model)
    assert not [d for d in node_diagnostics(result.diagnostics) if d.is_error], node_diagnostics(result.diagnostics)
    assert result.facts["s"].shape == (2,) and result.facts["y"].shape == (2, 5)
