"""Constraints written with the formulas' element-type functions (`dtype`, `is_integer`, `is_float`, `bits`,
`tensor`) and outputs typed by which optional inputs are present, as the validator applies them to models."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from opset.validate import check_model

F, I32, I64, U8 = TensorProto.FLOAT, TensorProto.INT32, TensorProto.INT64, TensorProto.UINT8


def _model(node: onnx.NodeProto, inputs: list[onnx.ValueInfoProto], output: onnx.ValueInfoProto,
           inits: list[onnx.TensorProto], opset: int) -> onnx.ModelProto:
    model = helper.make_model(helper.make_graph([node], "g", inputs, [output], inits),
                              opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 10
    return model


def _errors(model: onnx.ModelProto) -> list[str]:
    return [d.check for d in check_model(model).diagnostics if d.is_error]


def _divide(op: str, dtype: type, divisor: list[float], opset: int = 13, **attrs: int) -> onnx.ModelProto:
    elem = helper.np_dtype_to_tensor_dtype(np.dtype(dtype))
    b = numpy_helper.from_array(np.array(divisor, dtype), "B")
    return _model(helper.make_node(op, ["A", "B"], ["C"], **attrs), [helper.make_tensor_value_info("A", elem, [3])],
                  helper.make_tensor_value_info("C", elem, [3]), [b], opset)


@pytest.mark.parametrize("op", ["Div", "Mod"])
def test_an_integer_divisor_holding_zero_is_an_error(op: str) -> None:
    fmod = {"fmod": 1} if op == "Mod" else {}
    assert _errors(_divide(op, np.int32, [1, 0, 2], **fmod)) == [f"{op.lower()}_c{4 if op == 'Div' else 2}"]
    assert _errors(_divide(op, np.int64, [1, 3, 2], **fmod)) == []
    assert _errors(_divide(op, np.float32, [1, 0, 2], **fmod)) == []  # a float's is an infinity or NaN


def test_mod_of_floats_needs_fmod_before_version_28() -> None:
    assert _errors(_divide("Mod", np.float32, [1, 2, 3], fmod=0)) == ["mod_c3"]
    assert _errors(_divide("Mod", np.float32, [1, 2, 3], fmod=1)) == []
    assert _errors(_divide("Mod", np.int32, [1, 2, 3], fmod=0)) == []
    assert _errors(_divide("Mod", np.float32, [1, 2, 3], opset=28, fmod=0)) == []


@pytest.mark.parametrize(("source", "target", "clean"), [
    (F, I32, True), (F, I64, False), (TensorProto.FLOAT16, TensorProto.BFLOAT16, True), (U8, TensorProto.INT4, False),
    (TensorProto.DOUBLE, TensorProto.COMPLEX64, True),
])
def test_bitcast_keeps_the_width(source: int, target: int, clean: bool) -> None:
    node = helper.make_node("BitCast", ["x"], ["y"], to=target)
    model = _model(node, [helper.make_tensor_value_info("x", source, [4])],
                   helper.make_tensor_value_info("y", target, [4]), [], 26)
    assert _errors(model) == ([] if clean else ["bitcast_c1"])


def _dequantize(scale_type: int, output_dtype: int | None, declared: int) -> onnx.ModelProto:
    scale = helper.make_tensor("s", scale_type, [], [1.0])
    attrs = {} if output_dtype is None else {"output_dtype": output_dtype}
    node = helper.make_node("DequantizeLinear", ["x", "s"], ["y"], **attrs)
    return _model(node, [helper.make_tensor_value_info("x", U8, [4])],
                  helper.make_tensor_value_info("y", declared, [4]), [scale], 24)


def test_a_float8e8m0_scale_needs_output_dtype_as_onnx_says() -> None:
    bad = _dequantize(TensorProto.FLOAT8E8M0, None, F)
    with pytest.raises(onnx.shape_inference.InferenceError, match="DequantizeLinear"):
        onnx.shape_inference.infer_shapes(bad, strict_mode=True)
    assert "dequantizelinear_c5" in _errors(bad)
    good = _dequantize(TensorProto.FLOAT8E8M0, F, F)
    assert _errors(good) == []
    assert check_model(good).facts["y"].type == "tensor(float)"


def test_dequantize_output_dtype_types_the_output() -> None:
    assert check_model(_dequantize(F, TensorProto.FLOAT16, TensorProto.FLOAT16)).facts["y"].type == "tensor(float16)"
    assert check_model(_dequantize(F, None, F)).facts["y"].type == "tensor(float)"  # x_scale's type
    assert "type_mismatch" in _errors(_dequantize(F, TensorProto.FLOAT16, F))


def _quantize(opset: int, zero_point: int | None, declared: int, output_dtype: int | None = None) -> onnx.ModelProto:
    inputs, inits = ["x", "s"], [helper.make_tensor("s", F, [], [0.5])]
    if zero_point is not None:
        inputs.append("z")
        inits.append(helper.make_tensor("z", zero_point, [], [0]))
    attrs = {} if output_dtype is None else {"output_dtype": output_dtype}
    node = helper.make_node("QuantizeLinear", inputs, ["y"], **attrs)
    return _model(node, [helper.make_tensor_value_info("x", F, [4])],
                  helper.make_tensor_value_info("y", declared, [4]), inits, opset)


@pytest.mark.parametrize("opset", [10, 13, 19, 21, 23])
def test_quantize_without_a_zero_point_gives_uint8(opset: int) -> None:
    """The output's type follows which optional inputs are present: y_zero_point's type, else uint8."""
    assert check_model(_quantize(opset, None, U8)).facts["y"].type == "tensor(uint8)"
    assert "type_mismatch" in _errors(_quantize(opset, None, TensorProto.INT8))
    assert check_model(_quantize(opset, TensorProto.INT8, TensorProto.INT8)).facts["y"].type == "tensor(int8)"


def test_quantize_output_dtype_names_the_type_and_must_agree_with_the_zero_point() -> None:
    assert check_model(_quantize(21, None, TensorProto.INT8, TensorProto.INT8)).facts["y"].type == "tensor(int8)"
    assert "quantizelinear_c5" in _errors(_quantize(21, U8, TensorProto.INT8, TensorProto.INT8))


def test_random_like_without_dtype_needs_a_float_input() -> None:
    def like(elem: int, **attrs: int) -> onnx.ModelProto:
        node = helper.make_node("RandomNormalLike", ["x"], ["y"], **attrs)
        out = attrs.get("dtype", elem)
        return _model(node, [helper.make_tensor_value_info("x", elem, [2])],
                      helper.make_tensor_value_info("y", out, [2]), [], 18)

    assert _errors(like(I32)) == ["randomnormallike_c1"]
    assert _errors(like(I32, dtype=F)) == []
    assert _errors(like(F)) == []
