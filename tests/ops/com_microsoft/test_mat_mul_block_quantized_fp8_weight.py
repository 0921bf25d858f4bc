"""com.microsoft MatMulBlockQuantizedFp8Weight: onnxruntime has no CPU kernel (CUDA only), so the kernel is checked
against the equivalent ai.onnx subgraph run by onnxruntime (blocked DequantizeLinear-21 of B, A's QuantizeLinear /
DequantizeLinear round trip to float8 for W8A8, Transpose, MatMul, Add, in float32 with Casts around); the shape
formula, rejected nodes and inputs."""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from tests.helpers import (
    OracleCase,
    assert_matches_oracle,
    assert_registry_ranges_exercised,
    formula_shapes,
    problem_checks,
    run,
    run_onnxruntime,
    version,
)

DOMAIN = "com.microsoft"
OP = "MatMulBlockQuantizedFp8Weight"
RNG = np.random.default_rng(8)


def fp8(*shape: int) -> np.ndarray:
    return RNG.uniform(-6, 6, shape).astype(np.float32).astype(ml_dtypes.float8_e4m3fn)


def subgraph(a: np.ndarray, b: np.ndarray, b_scale: np.ndarray, a_scale: np.ndarray | None,
             bias: np.ndarray | None, block_size: int) -> list[np.ndarray]:
    """The op as ai.onnx nodes (opset 21), run by onnxruntime."""
    elem = helper.np_dtype_to_tensor_dtype(a.dtype)
    nodes = [helper.make_node("Cast", ["a"], ["af"], to=TensorProto.FLOAT),
             helper.make_node("DequantizeLinear", ["b", "b_scale"], ["w"], axis=1, block_size=block_size),
             helper.make_node("Transpose", ["w"], ["wt"], perm=[1, 0])]
    feeds: dict[str, Any] = {"a": a, "b": b, "b_scale": b_scale}
    x = "af"
    if a_scale is not None:
        zero = helper.make_tensor("zero", TensorProto.FLOAT8E4M3FN, [], [0.0])
        nodes += [helper.make_node("Constant", [], ["zp"], value=zero),
                  helper.make_node("QuantizeLinear", ["af", "a_scale", "zp"], ["aq"], saturate=1),
                  helper.make_node("DequantizeLinear", ["aq", "a_scale"], ["ad"])]
        feeds["a_scale"] = a_scale
        x = "ad"
    nodes.append(helper.make_node("MatMul", [x, "wt"], ["y0"]))
    y = "y0"
    if bias is not None:
        nodes += [helper.make_node("Cast", ["bias"], ["bf"], to=TensorProto.FLOAT),
                  helper.make_node("Add", ["y0", "bf"], ["y1"])]
        feeds["bias"] = bias
        y = "y1"
    bfloat = elem == TensorProto.BFLOAT16  # onnxruntime's Python outputs take no bfloat16: rounded here
    nodes.append(helper.make_node("Cast", [y], ["y"], to=TensorProto.FLOAT if bfloat else elem))
    # every value an initializer: onnxruntime's Python feeds take no float8 or bfloat16 arrays
    out_type = TensorProto.FLOAT if bfloat else elem
    graph = helper.make_graph(nodes, "g", [], [helper.make_tensor_value_info("y", out_type, None)],
                              initializer=[numpy_helper.from_array(np.asarray(v), k) for k, v in feeds.items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])
    model.ir_version = 10
    out = run_onnxruntime(model, {})
    return [o.astype(a.dtype) for o in out]


def case(a_shape: tuple[int, ...], n: int, block: int, *, w8a8: bool = False, bias: bool = False,
         dtype: Any = np.float16, id: str) -> OracleCase:
    k = a_shape[-1]
    a = RNG.uniform(-2, 2, a_shape).astype(dtype)
    b = fp8(n, k)
    b_scale = RNG.uniform(0.01, 0.5, (n, -(-k // block))).astype(np.float32)
    a_scale = np.array(0.02, np.float32) if w8a8 else None
    bias_value = RNG.uniform(-1, 1, n).astype(dtype) if bias else None
    inputs = [a, b, b_scale, a_scale, bias_value]
    return OracleCase(OP, {"block_size": block}, inputs, (1,), rtol=2e-3, id=id, domain=DOMAIN,
                      oracle=lambda: subgraph(a, b, b_scale, a_scale, bias_value, block))


CASES = [
    case((3, 32), 4, 16, id="w8a16"),
    case((2, 3, 40), 5, 16, bias=True, id="partial_block_bias"),
    case((3, 32), 4, 8, w8a8=True, id="w8a8"),
    case((4, 24), 3, 128, w8a8=True, bias=True, dtype=ml_dtypes.bfloat16, id="bfloat16_one_block"),
    case((20,), 6, 4, id="vector_a"),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_kernel_matches_the_subgraph_on_onnxruntime(case: OracleCase) -> None:
    assert_matches_oracle(case, 1)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


def test_a_scale_saturates_at_the_largest_e4m3() -> None:
    """W8A8: A / a_scale past 448 is held at 448 (hand-derived: 1 * 1 weight, a_scale 1)."""
    a = np.array([[1000.0, -3.3]], np.float16)
    b = np.ones((1, 2), np.float32).astype(ml_dtypes.float8_e4m3fn)
    y = run(DOMAIN, OP, 1, [a, b, np.ones((1, 1), np.float32), np.array(1.0, np.float32), None], block_size=128)[0]
    assert float(y[0, 0]) == 448.0 - 3.25  # -3.3 rounds to the E4M3 value -3.25


def test_shape_formula() -> None:
    assert formula_shapes(version(DOMAIN, OP, 1), [[2, 3, 40], [5, 40], [5, 3]], {"block_size": 16}) == [[2, 3, 5]]


@pytest.mark.parametrize(("k", "value", "message"), [
    pytest.param(2, np.ones((4, 3), np.float32), "weight scales", id="b_scale_blocks"),
    pytest.param(0, np.ones((3, 31), np.float16), "last dim", id="a_width"),
    pytest.param(4, np.ones(5, np.float16), "bias", id="bias_length"),
])
def test_kernel_rejects_invalid_input(k: int, value: np.ndarray, message: str) -> None:
    inputs = list(CASES[0].inputs)
    inputs[k] = value
    with pytest.raises(ValueError, match=message):
        run(DOMAIN, OP, 1, inputs, block_size=16)


@pytest.mark.parametrize(("shapes", "check"), [
    pytest.param([[3, 31], [4, 32], [4, 2]], "matmulblockquantizedfp8weight_c1", id="a_width"),
    pytest.param([[3, 32], [4, 32], [4, 3]], "matmulblockquantizedfp8weight_c2", id="b_scale_blocks"),
    pytest.param([[3, 32], [4, 32], [4, 2], [2]], "matmulblockquantizedfp8weight_c3", id="a_scale_two"),
    pytest.param([[3, 32], [4, 32], [4, 2], None, [3]], "matmulblockquantizedfp8weight_c4", id="bias_length"),
])
def test_invalid_node_reports_the_check(shapes: list[Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, {"block_size": 16})
