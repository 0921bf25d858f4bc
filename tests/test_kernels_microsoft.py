"""com.microsoft reference kernels against onnxruntime on one-node models."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import helper

from conformance.kernels.registry import all_kernels, run_kernel
from opset.load import load_registry

RNG = np.random.default_rng(7)
REGISTRY = load_registry()


def run_ort(op: str, inputs: list[np.ndarray | None], attrs: dict[str, Any]) -> list[np.ndarray]:
    names, graph_inputs, feeds = [], [], {}
    for i, arr in enumerate(inputs):
        if arr is None:
            names.append("")
            continue
        names.append(f"in{i}")
        graph_inputs.append(helper.make_tensor_value_info(f"in{i}", helper.np_dtype_to_tensor_dtype(arr.dtype),
                                                          arr.shape))
        feeds[f"in{i}"] = arr
    node = helper.make_node(op, names, ["out0"], domain="com.microsoft", **attrs)
    graph = helper.make_graph([node], "g", graph_inputs, [onnx.ValueInfoProto(name="out0")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18),
                                                    helper.make_opsetid("com.microsoft", 1)])
    model.ir_version = 8
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return list(sess.run(None, feeds))


def ours(op: str, inputs: list[np.ndarray | None], attrs: dict[str, Any]) -> tuple[np.ndarray, ...]:
    return run_kernel(REGISTRY.resolve("com.microsoft", op, 1), inputs, attrs)


def f32(*shape: int, scale: float = 1.0) -> np.ndarray:
    return (RNG.standard_normal(shape) * scale).astype(np.float32)


# values on exact .5 steps exercise round-half-to-even; large ones saturate
HALVES = np.array([-300.5, -2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 127.5, 128.5, 255.5, 70000.0], np.float32)

CASES = [
    ("FastGelu", [f32(2, 3, 8)], {}, "plain"),
    ("FastGelu", [f32(2, 3, 8), f32(8)], {}, "bias"),
    ("FastGelu", [f32(4, 8).astype(np.float16)], {}, "fp16"),
    ("QuantizeLinear", [HALVES, np.float32(1.0), np.uint8(3)], {}, "uint8_halves"),
    ("QuantizeLinear", [HALVES, np.float32(1.0), np.int8(-1)], {}, "int8_halves"),
    ("QuantizeLinear", [HALVES * 200, np.float32(2.0), np.uint16(100)], {}, "uint16"),
    ("QuantizeLinear", [HALVES * 200, np.float32(2.0), np.int16(-7)], {}, "int16"),
    ("QuantizeLinear", [f32(2, 3, 4, scale=50), np.float32(0.7)], {}, "no_zero_point"),
    ("QuantizeLinear", [f32(2, 3, 4, scale=50), np.array([0.5, 1.0, 2.0], np.float32), np.array([0, 10, 250],
                                                                                                  np.uint8)],
     {"axis": 1}, "per_axis"),
    ("QuantizeLinear", [f32(2, 3, 4, scale=50), np.array([0.5, 1.0, 2.0, 4.0], np.float32),
                        np.array([0, 1, -5, 3], np.int8)], {"axis": -1}, "per_axis_neg"),
    ("QuantizeLinear", [f32(3, 4, scale=50).astype(np.float16), np.float16(0.5), np.int8(2)], {}, "fp16"),
    ("DequantizeLinear", [RNG.integers(0, 256, (2, 3, 4)).astype(np.uint8), np.float32(0.3), np.uint8(128)], {},
     "uint8"),
    ("DequantizeLinear", [RNG.integers(-128, 128, (2, 3, 4)).astype(np.int8), np.float32(0.3)], {}, "int8_no_zp"),
    ("DequantizeLinear", [RNG.integers(-30000, 30000, (5,)).astype(np.int16), np.float32(0.01), np.int16(-4)], {},
     "int16"),
    ("DequantizeLinear", [RNG.integers(0, 65535, (5,)).astype(np.uint16), np.float32(0.01), np.uint16(9)], {},
     "uint16"),
    ("DequantizeLinear", [RNG.integers(-2**31, 2**31 - 1, (6,)).astype(np.int32), np.float32(0.001)], {}, "int32"),
    ("DequantizeLinear", [RNG.integers(0, 256, (2, 3, 4)).astype(np.uint8), np.array([0.1, 0.2, 0.3], np.float32),
                          np.array([1, 128, 255], np.uint8)], {"axis": 1}, "per_axis"),
    ("DequantizeLinear", [RNG.integers(0, 256, (2, 3)).astype(np.uint8), np.float16(0.25), np.uint8(3)], {},
     "fp16_scale"),
]


@pytest.mark.parametrize(("op", "inputs", "attrs"), [pytest.param(*c[:3], id=f"{c[0]}-{c[3]}") for c in CASES])
def test_kernel_matches_onnxruntime(op: str, inputs: list[np.ndarray], attrs: dict[str, Any]) -> None:
    inputs = [None if a is None else np.asarray(a) for a in inputs]
    want = run_ort(op, inputs, attrs)
    got = ours(op, inputs, attrs)
    assert isinstance(got, tuple) and len(got) == 1
    g, w = got[0], want[0]
    assert g.shape == w.shape and g.dtype == w.dtype, f"{op}: got {g.shape} {g.dtype}, expected {w.shape} {w.dtype}"
    if w.dtype.kind == "f":
        tol = 2e-3 if w.dtype == np.float16 else 1e-5
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol, err_msg=op)
    else:
        np.testing.assert_array_equal(g, w, err_msg=op)


def test_every_microsoft_kernel_is_tested() -> None:
    tested = {c[0] for c in CASES}
    registered = {op for (domain, op) in all_kernels() if domain == "com.microsoft"}
    assert registered <= tested, f"untested: {sorted(registered - tested)}"


@pytest.mark.parametrize(("op", "inputs", "attrs", "message"), [
    ("QuantizeLinear", [f32(2, 3), np.array([1.0, 2.0], np.float32)], {}, "per-tensor scale"),
    ("QuantizeLinear", [f32(2, 3), np.array([1.0, 2.0], np.float32)], {"axis": 1}, "length 3"),
    ("QuantizeLinear", [f32(2, 3), np.float32(1.0), np.int32(0)], {}, "output type"),
    ("DequantizeLinear", [np.zeros(3, np.uint8), np.float32(1.0), np.int8(0)], {}, "zero point type"),
    ("FastGelu", [f32(2, 3), f32(4)], {}, "bias"),
])
def test_invalid_inputs_raise_value_error(op: str, inputs: list[np.ndarray], attrs: dict[str, Any],
                                          message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ours(op, [np.asarray(a) for a in inputs], attrs)
