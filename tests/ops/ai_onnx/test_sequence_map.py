"""SequenceMap: the kernel against onnx.reference (one and two sequences, a tensor input passed whole, an empty
sequence, a body reading an outer value), the shape formula against onnx's shape inference, the constraint, and
the validator typing the output sequences from the body."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper

from opset.validate import check_model
from tests.helpers import OracleCase, Seeded, all_since, node_diagnostics, oracle_tests, shape_tests
from tests.helpers.oracles import ShapeCase

OP = "SequenceMap"
F, I64 = TensorProto.FLOAT, TensorProto.INT64
data = Seeded(1234)
V = all_since(OP)


def _value(name: str, elem: int, shape: list[int | None] | None) -> onnx.ValueInfoProto:
    return helper.make_tensor_value_info(name, elem, shape)


def add_body() -> onnx.GraphProto:
    """(a, b) -> a + b: the samples of two sequences, or a sample and a tensor."""
    return helper.make_graph([helper.make_node("Add", ["a", "b"], ["s"])], "body",
                             [_value("a", F, [None]), _value("b", F, [None])], [_value("s", F, [None])])


def shape_and_neg_body() -> onnx.GraphProto:
    """x -> (Shape(x), -x): two output sequences of two element types."""
    nodes = [helper.make_node("Shape", ["x"], ["shape"]), helper.make_node("Neg", ["x"], ["neg"])]
    return helper.make_graph(nodes, "body", [_value("x", F, [None, 3])],
                             [_value("shape", I64, [2]), _value("neg", F, [None, 3])])


def outer_body() -> onnx.GraphProto:
    """x -> x * w, with w a value of the enclosing graph (the node's second input, read by name)."""
    return helper.make_graph([helper.make_node("Mul", ["x", "in1"], ["y"])], "body", [_value("x", F, [2])],
                             [_value("y", F, [2])])


ROWS = [data.f32(2, 3), data.f32(4, 3), data.f32(1, 3)]
VECS = [data.f32(5), data.f32(2)]

CASES = [
    OracleCase(OP, {"body": add_body()}, [VECS, [data.f32(5), data.f32(2)]], V, id="two_sequences"),
    OracleCase(OP, {"body": add_body()}, [VECS, data.f32(1)], V, id="sequence_and_tensor"),
    OracleCase(OP, {"body": shape_and_neg_body()}, [ROWS], V, n_out=2, id="two_outputs_two_types"),
    OracleCase(OP, {"body": add_body()}, [[], data.f32(3)], V, input_types={0: "seq(tensor(float))"},
               oracle=lambda: [[]], id="empty"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


# onnx's shape inference gives each output sequence the body's output shape as its element shape
SHAPES = [
    ShapeCase(OP, 17, [ROWS], {"body": shape_and_neg_body()}, 2),
    ShapeCase(OP, 17, [VECS, [data.f32(5), data.f32(2)]], {"body": add_body()}),
]

REJECTED = [
    (ShapeCase(OP, 17, [VECS, [data.f32(5)]], {"body": add_body()}), "sequencemap_c1"),
    (ShapeCase(OP, 17, [VECS], {"body": add_body()}), "graph_signature"),  # two body inputs, one node input
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


def test_invalid_node_reports_the_check() -> None:
    """The constraint needs the inputs' types (which input is a sequence): the validator knows them."""
    from opset.infer import infer_shapes
    from tests.helpers import registry, shapes_of

    v = registry().resolve("ai.onnx", OP, 17)
    for case, check in REJECTED:
        types = ["seq(tensor(float))" if isinstance(x, list) else "tensor(float)" for x in case.inputs]
        result = infer_shapes(v, shapes_of(case.inputs), case.attrs, output_count=case.n_out, input_types=types)
        assert check in [p.check for p in result.problems], (check, result.problems)


def test_a_body_reading_an_outer_value_sees_it() -> None:
    from conformance.models import run_model

    x = helper.make_tensor_sequence_value_info("in0", F, [2])
    w = _value("in1", F, [2])
    node = helper.make_node(OP, ["in0"], ["out"], body=outer_body())
    out_info = helper.make_tensor_sequence_value_info("out", F, [2])
    model = helper.make_model(helper.make_graph([node], "g", [x, w], [out_info]),
                              opset_imports=[helper.make_opsetid("", 17)])
    seq = [np.array([1.0, 2.0], np.float32), np.array([3.0, 4.0], np.float32)]
    weight = np.array([2.0, -1.0], np.float32)
    out = run_model(model, {"in0": seq, "in1": weight})["out"]
    from tests.helpers import run_onnxruntime

    # onnx.reference runs SequenceMap's body without the enclosing graph's values (onnx-reference.yaml)
    (theirs,) = run_onnxruntime(model, {"in0": seq, "in1": weight})
    assert len(out) == 2 and all(np.array_equal(a, b) for a, b in zip(out, theirs, strict=True))
    assert np.array_equal(out[1], np.array([6.0, -4.0], np.float32))


def test_the_validator_types_each_output_sequence_from_the_body() -> None:
    x = helper.make_tensor_sequence_value_info("x", F, [None, 3])
    node = helper.make_node(OP, ["x"], ["shapes", "negs"], body=shape_and_neg_body())
    model = helper.make_model(helper.make_graph([node], "g", [x], [onnx.ValueInfoProto(name="shapes"),
                                                                   onnx.ValueInfoProto(name="negs")]),
                              opset_imports=[helper.make_opsetid("", 17)])
    result = check_model(model)
    assert not [d for d in node_diagnostics(result.diagnostics) if d.is_error], node_diagnostics(result.diagnostics)
    assert result.facts["shapes"].type == "seq(tensor(int64))" and result.facts["negs"].type == "seq(tensor(float))"
