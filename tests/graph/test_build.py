"""Models built with the op functions of `opset.ops`: valid for onnx's checker, `opset validate` and onnxruntime,
and equal to eager mode's arrays."""

from __future__ import annotations

import numpy as np
import onnx
import pytest

from opset.graph import BuildError, Value
from opset.ops import build, constant, inputs
from opset.ops.ai_onnx import v13, v22
from opset.ops.com_microsoft import v1 as ms
from opset.validate import validate_model
from tests.helpers.oracles import run_onnxruntime

RNG = np.random.default_rng(14)


def _valid(model: onnx.ModelProto) -> None:
    onnx.checker.check_model(model, full_check=True)
    assert [str(d) for d in validate_model(model) if d.is_error] == []


def test_conv_relu_pool_runs_in_onnxruntime_as_in_eager_mode() -> None:
    w = RNG.standard_normal((4, 3, 3, 3)).astype(np.float32)
    b = RNG.standard_normal(4).astype(np.float32)
    x = inputs.tensor("x", "float", ("N", 3, 16, 16))
    y = v22.AveragePool(v22.Relu(v22.Conv(x, w, b, kernel_shape=[3, 3], pads=[1, 1, 1, 1])), kernel_shape=[2, 2],
                        strides=[2, 2])
    assert (y.type, y.shape) == ("tensor(float)", ("N", 4, 8, 8))
    model = build(inputs=[x], outputs={"y": y})
    _valid(model)
    data = RNG.standard_normal((2, 3, 16, 16)).astype(np.float32)
    eager = v22.AveragePool(v22.Relu(v22.Conv(data, w, b, kernel_shape=[3, 3], pads=[1, 1, 1, 1])),
                            kernel_shape=[2, 2], strides=[2, 2])
    assert isinstance(eager, np.ndarray) and eager.shape == (2, 4, 8, 8)
    (got,) = run_onnxruntime(model, {"x": data})
    np.testing.assert_allclose(got, eager, rtol=1e-5, atol=1e-5)


def test_the_model_holds_generated_unique_names_value_info_and_only_given_attributes() -> None:
    x = inputs.tensor("x", "float", ("N", 8))
    a = v13.Relu(x)
    b = v13.Relu(a)  # the same op twice: two nodes, two names
    model = build(inputs=[x], outputs=[v13.Add(a, b)])
    graph = model.graph
    names = [n.name for n in graph.node]
    outputs = [o for n in graph.node for o in n.output]
    assert len(set(names)) == len(names) == 3 and len(set(outputs)) == 3
    assert {vi.name for vi in graph.value_info} == {graph.node[0].output[0], graph.node[1].output[0]}
    dims = [d.dim_param or d.dim_value for d in graph.value_info[0].type.tensor_type.shape.dim]
    assert dims == ["N", 8]
    assert [(i.domain, i.version) for i in model.opset_import] == [("", 13)]  # Relu@13 and Add@13: the newest used
    pool = build(inputs=[inp := inputs.tensor("p", "float", (1, 1, 4, 4))],
                 outputs=[v22.MaxPool(inp, kernel_shape=[2, 2])])
    assert [a.name for a in pool.graph.node[0].attribute] == ["kernel_shape"]  # no defaults written
    _valid(model)


def test_mixed_domains_fusedgemm_runs_in_onnxruntime_as_in_eager_mode() -> None:
    b = RNG.standard_normal((4, 5)).astype(np.float32)
    c = RNG.standard_normal(5).astype(np.float32)
    a = inputs.tensor("a", "float", ("batch", 4))
    y = v13.Sigmoid(ms.FusedGemm(a, b, c, activation="LeakyRelu", activation_alpha=0.1))
    assert y.shape == ("batch", 5)
    model = build(inputs=[a], outputs={"y": y})
    _valid(model)
    assert sorted((i.domain, i.version) for i in model.opset_import) == [("", 13), ("com.microsoft", 1)]
    data = RNG.standard_normal((3, 4)).astype(np.float32)
    eager = v13.Sigmoid(ms.FusedGemm(data, b, c, activation="LeakyRelu", activation_alpha=0.1))
    (got,) = run_onnxruntime(model, {"a": data})
    np.testing.assert_allclose(got, eager, rtol=1e-5, atol=1e-6)
    alone = build(inputs=[a], outputs={"z": ms.FusedGemm(a, b, c, activation="Relu")})  # com.microsoft only
    _valid(alone)
    (got,) = run_onnxruntime(alone, {"a": data})
    np.testing.assert_allclose(got, ms.FusedGemm(data, b, c, activation="Relu"), rtol=1e-5, atol=1e-6)


def test_several_outputs_come_as_a_tuple_and_shapes_follow_constant_values() -> None:
    x = inputs.tensor("x", "float", (2, 10))
    values, indices = v22.TopK(x, np.array([3], np.int64))
    assert (values.shape, indices.type) == ((2, 3), "tensor(int64)")
    reshaped = v22.Reshape(x, constant(np.array([5, -1], np.int64), name="shape"))
    assert reshaped.shape == (5, 4)
    parts = v22.Split(x, np.array([4, 6], np.int64), axis=1, n_outputs=2)
    assert [p.shape for p in parts] == [(2, 4), (2, 6)]
    model = build(inputs=[x], outputs=[values, indices, reshaped, *parts])
    assert "shape" in {t.name for t in model.graph.initializer}
    _valid(model)


def test_a_violated_constraint_raises_at_the_line_that_wrote_it_with_its_id() -> None:
    x = inputs.tensor("x", "float", ("N", 3, 8, 8))
    w = np.zeros((4, 3, 3, 3), np.float32)
    with pytest.raises(BuildError) as caught:
        v22.Conv(x, w, kernel_shape=[5, 5])  # W's spatial dims are 3x3
    assert f"{__file__}:{caught.tb.tb_lineno}: ai.onnx@22::Conv:" in str(caught.value)
    assert "conv_c4" in [check for check, _ in caught.value.problems]


def test_a_type_the_op_does_not_take_raises() -> None:
    with pytest.raises(BuildError) as caught:
        v13.Add(inputs.tensor("f", "float", (2,)), inputs.tensor("i", "int64", (2,)))
    assert [c for c, _ in caught.value.problems] == ["type_mismatch"]
    with pytest.raises(BuildError, match=r"\[type_not_allowed\].*tensor\(string\)"):
        v22.Relu(inputs.tensor("s", "string", (2,)))


def test_eager_mode_checks_the_node_too() -> None:
    with pytest.raises(BuildError, match=r"\[attr_allowed\] attribute 'ceil_mode' = 2"):
        v22.AveragePool(np.zeros((1, 1, 4, 4), np.float32), kernel_shape=[2, 2], ceil_mode=2)  # type: ignore[arg-type]
    np.testing.assert_array_equal(v13.Relu(np.array([-1.0, 2.0], np.float32)), [0.0, 2.0])


def test_build_refuses_what_cannot_be_a_model() -> None:
    x = inputs.tensor("x", "float", (2,))
    hidden = inputs.tensor("hidden", "float", (2,))
    with pytest.raises(BuildError, match=r"\[graph_input\] 'hidden' is a graph input the outputs need"):
        build(inputs=[x], outputs=[v13.Add(x, hidden)])
    with pytest.raises(BuildError, match=r"\[graph_output\]"):
        build(inputs=[x], outputs=[x])
    old = v13.Relu(x)  # Relu@13 ...
    with pytest.raises(BuildError, match=r"\[mixed_opsets\].*Relu"):
        build(inputs=[x], outputs=[v22.Relu(old)])  # ... and Relu@14: no single ai.onnx opset has both


def test_a_value_prints_its_type_and_shape() -> None:
    v: Value = v13.Relu(inputs.tensor("x", "float", ("N", None)))
    assert v.shape == ("N", None) and repr(v).endswith("tensor(float) [N, ?])")


def test_ops_without_inputs_renamed_arguments_and_all_optional_outputs() -> None:
    c = v22.Constant(value=np.array([1.0, 2.0], np.float32))  # no inputs: always a graph value
    assert isinstance(c, Value) and c.shape == (2,)
    x = inputs.tensor("x", "float", (2, 3, 4, 4))
    indices = inputs.tensor("indices", "int64", (2, 3, 2, 2))
    pooled = v22.AveragePool(x, kernel_shape=[2, 2], strides=[2, 2])
    unpooled = v22.MaxUnpool(pooled, indices, kernel_shape=[2, 2], strides=[2, 2])  # its input I is `indices`
    assert unpooled.shape == (2, 3, 4, 4)
    y, y_h, y_c = v22.LSTM(inputs.tensor("s", "float", (5, 2, 3)), np.zeros((1, 16, 3), np.float32),
                           np.zeros((1, 16, 4), np.float32), hidden_size=4)  # every output optional: all three
    assert (y.shape, y_h.shape, y_c.shape) == ((5, 1, 2, 4), (1, 2, 4), (1, 2, 4))
    model = build(inputs=[x, indices], outputs=[unpooled, v22.Add(c, c), v22.Reshape(x, v22.Shape(x))])
    assert [n.op_type for n in model.graph.node] == ["Constant", "AveragePool", "MaxUnpool", "Add", "Shape", "Reshape"]
    assert model.graph.output[2].type.tensor_type.shape.dim[3].dim_value == 4  # the Shape's values reached Reshape
    _valid(model)


def test_the_element_type_literal_lists_every_element_type() -> None:
    from opset.dtypes import ELEMENT_TYPES
    from opset.graph.inputs import ELEMENT_NAMES

    assert sorted(ELEMENT_NAMES) == sorted(ELEMENT_TYPES)
    with pytest.raises(ValueError, match="'flaot' is not an element type"):
        inputs.tensor("x", "flaot", (1,))  # type: ignore[arg-type]


def test_parameter_inputs_take_python_numbers() -> None:
    """A `parameter` input (registry role) given as Python numbers becomes the constant a model carries: an int64
    initializer in graph mode, whose values give the output its shape; an array in eager mode. A data input does
    not take a list."""
    x = inputs.tensor("x", "float", ("N", 6))
    y = v13.Reshape(x, [-1, 2, 3])
    assert [str(d) for d in y.shape] == ["N", "2", "3"]
    model = build(inputs=[x], outputs={"y": y})
    (shape,) = model.graph.initializer
    assert shape.data_type == onnx.TensorProto.INT64 and list(onnx.numpy_helper.to_array(shape)) == [-1, 2, 3]
    eager = v13.Slice(np.arange(6, dtype=np.float32).reshape(2, 3), [0], [2], [1])
    assert eager.tolist() == [[0.0, 1.0], [3.0, 4.0]]
    with pytest.raises(TypeError, match="not a graph value or a numpy array"):
        v13.Add(x, [1.0])
