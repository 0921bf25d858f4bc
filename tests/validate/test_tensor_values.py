"""The values validation reads from small int tensors (Reshape's shape, ConstantOfShape's input) are onnx's."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("raw", [True, False])
@pytest.mark.parametrize("dtype", ["int64", "int32"])
@pytest.mark.parametrize("shape", [(), (1,), (4,), (2, 3)])
def test_tensor_values_read_what_numpy_reads(raw: bool, dtype: str, shape: tuple[int, ...]) -> None:
    """The shape-like values validation reads from an int tensor (struct on raw_data, the typed field otherwise)
    are onnx's own decoding of it, extremes and negatives included."""
    import numpy as np
    from onnx import helper, numpy_helper

    from opset.validate.tensors import tensor_values

    info = np.iinfo(dtype)
    values = np.resize(np.array([0, -1, 7, info.min, info.max, 12345], dtype), shape)
    if raw:
        t = numpy_helper.from_array(values, "t")
    else:
        t = helper.make_tensor("t", helper.np_dtype_to_tensor_dtype(values.dtype), shape, values.reshape(-1).tolist())
    assert t.HasField("raw_data") is raw
    assert tensor_values(t) == tuple(int(x) for x in numpy_helper.to_array(t).reshape(-1))


@pytest.mark.parametrize("raw", [True, False])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_small_float_tensors_give_their_values_and_large_ones_do_not(raw: bool, dtype: str) -> None:
    """A Resize's scales, a Clip's bounds: floats of a few elements are read (weights and biases are not)."""
    import numpy as np
    from onnx import helper, numpy_helper

    from opset.validate.tensors import MAX_FLOAT_VALUES, tensor_values

    def tensor(values: np.ndarray) -> object:
        if raw:
            return numpy_helper.from_array(values, "t")
        return helper.make_tensor("t", helper.np_dtype_to_tensor_dtype(values.dtype), values.shape, values.tolist())

    scales = np.array([1, 1, 2, 1.5], dtype)
    assert tensor_values(tensor(scales)) == (1.0, 1.0, 2.0, 1.5)  # type: ignore[arg-type]
    assert tensor_values(tensor(np.ones(MAX_FLOAT_VALUES + 1, dtype))) is None  # type: ignore[arg-type]


def _shape_chain_model() -> object:
    """torch's exporter's pattern: a Reshape's shape [2, -1, 8, 8] made of Shape/Gather pieces, its -1 replaced by
    Where(Equal(shape, ConstantOfShape(1) * -1), ConstantOfShape(1), shape) before an Expand; then a Resize by float
    scales [1, 1, 2, 2]."""
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper

    f = TensorProto.FLOAT
    one = numpy_helper.from_array(np.array([1], np.int64), "one")
    inits = [numpy_helper.from_array(np.array([2, -1, 8, 8], np.int64), "target"),
             numpy_helper.from_array(np.array(-1, np.int64), "minus"),
             numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), "scales")]
    nodes = [helper.make_node("Shape", ["target"], ["n"]),
             helper.make_node("ConstantOfShape", ["n"], ["ones"], value=one),
             helper.make_node("Mul", ["ones", "minus"], ["negs"]),
             helper.make_node("Equal", ["target", "negs"], ["is_free"]),
             helper.make_node("Where", ["is_free", "ones", "target"], ["shape"]),
             helper.make_node("Expand", ["x", "shape"], ["e"]),
             helper.make_node("Resize", ["e", "", "scales"], ["y"], mode="nearest")]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", f, [2, 1, 8, 8])],
                              [helper.make_tensor_value_info("y", f, [None] * 4)], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])


def test_values_flow_through_constant_of_shape_equal_and_where_and_scales_reach_resize() -> None:
    import onnx

    from opset.validate import check_model

    model = _shape_chain_model()
    assert isinstance(model, onnx.ModelProto)
    result = check_model(model)
    assert result.diagnostics == []
    assert result.facts["e"].shape == (2, 1, 8, 8)  # Expand's shape [2, 1, 8, 8]: the -1 became 1
    assert result.facts["y"].shape == (2, 1, 16, 16)
    import onnxruntime as ort

    (y,) = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(
        ["y"], {"x": __import__("numpy").zeros((2, 1, 8, 8), "float32")})
    assert y.shape == (2, 1, 16, 16)
