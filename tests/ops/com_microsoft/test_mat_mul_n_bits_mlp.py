"""com.microsoft MatMulNBitsMlp: onnxruntime implements it on WebGPU only, so the kernel is checked against the
equivalent subgraph run by onnxruntime's CPU kernels (Add for the skip, the RMS normalization as ai.onnx nodes, two
com.microsoft MatMulNBits, Sigmoid, Mul); the shape formulas, rejected nodes and inputs."""

from __future__ import annotations

from typing import Any

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
OP = "MatMulNBitsMlp"
RNG = np.random.default_rng(22)
NAMES = ["A", "skip", "norm_scale", "gate_B", "gate_scales", "gate_bias", "up_B", "up_scales", "up_bias"]


def subgraph(inputs: list[np.ndarray | None], attrs: dict[str, Any], n_out: int) -> list[np.ndarray]:
    """The op as CPU nodes: x = A (+ skip); x / sqrt(mean(x^2) + epsilon) * norm_scale when norm_scale is given;
    two MatMulNBits; silu(gate) * up."""
    given = {name: v for name, v in zip(NAMES, inputs, strict=True) if v is not None}
    nodes = [helper.make_node("Add", ["A", "skip"], ["x"]) if "skip" in given else
             helper.make_node("Identity", ["A"], ["x"])]
    source = "x"
    if "norm_scale" in given:
        eps = helper.make_tensor("eps", TensorProto.FLOAT, [], [attrs.get("epsilon", 1e-5)])
        nodes += [helper.make_node("Mul", ["x", "x"], ["sq"]),
                  helper.make_node("ReduceMean", ["sq"], ["ms"], axes=[-1], keepdims=1),
                  helper.make_node("Constant", [], ["eps"], value=eps),
                  helper.make_node("Add", ["ms", "eps"], ["mse"]), helper.make_node("Sqrt", ["mse"], ["rms"]),
                  helper.make_node("Div", ["x", "rms"], ["xn"]),
                  helper.make_node("Mul", ["xn", "norm_scale"], ["normed"])]
        source = "normed"
    common = {k: attrs[k] for k in ("K", "N", "bits", "block_size") if k in attrs}
    for p in ("gate", "up"):
        ins = [source, f"{p}_B", f"{p}_scales", "", "", f"{p}_bias" if f"{p}_bias" in given else ""]
        nodes.append(helper.make_node("MatMulNBits", ins, [p], domain=DOMAIN, **common))
    nodes += [helper.make_node("Sigmoid", ["gate"], ["sig"]), helper.make_node("Mul", ["gate", "sig"], ["silu"]),
              helper.make_node("Mul", ["silu", "up"], ["y"])]
    outs = ["y", "x"][:n_out]
    graph = helper.make_graph(nodes, "g", [], [helper.make_tensor_value_info(o, TensorProto.FLOAT, None) for o in outs],
                              initializer=[numpy_helper.from_array(v, k) for k, v in given.items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid(DOMAIN, 1)])
    model.ir_version = 8
    return run_onnxruntime(model, {})


def mlp_inputs(lead: tuple[int, ...], k: int, n: int, bits: int, block: int, *, norm: bool, skip: bool,
               bias: bool) -> list[np.ndarray | None]:
    kb = -(-k // block)
    a = RNG.uniform(-2, 2, (*lead, k)).astype(np.float32)
    out: list[np.ndarray | None] = [a, RNG.uniform(-1, 1, a.shape).astype(np.float32) if skip else None,
                                    RNG.uniform(0.5, 1.5, k).astype(np.float32) if norm else None]
    for _ in range(2):
        out += [RNG.integers(0, 256, (n, kb, block * bits // 8)).astype(np.uint8),
                RNG.uniform(0.01, 0.1, (n, kb)).astype(np.float32),
                RNG.uniform(-1, 1, n).astype(np.float32) if bias else None]
    return out


def case(lead: tuple[int, ...], k: int, n: int, bits: int, block: int, id: str, *, norm: bool = False,
         skip: bool = False, bias: bool = False, n_out: int = 1, epsilon: float | None = None) -> OracleCase:
    inputs = mlp_inputs(lead, k, n, bits, block, norm=norm, skip=skip, bias=bias)
    attrs: dict[str, Any] = {"K": k, "N": n, "bits": bits, "block_size": block, "activation": "silu"}
    if epsilon is not None:
        attrs["epsilon"] = epsilon
    return OracleCase(OP, attrs, inputs, (1,), n_out=n_out, rtol=1e-4, id=id, domain=DOMAIN,
                      oracle=lambda: subgraph(inputs, attrs, n_out))


CASES = [
    case((2, 3), 32, 8, 4, 16, "plain"),
    case((3,), 40, 6, 4, 32, "rms_norm_bias", norm=True, bias=True),
    case((2, 2), 16, 4, 8, 16, "skip_sum_output", norm=True, skip=True, n_out=2, epsilon=0.5),
    case((1, 2), 24, 5, 2, 16, "two_bits_skip_bias", norm=True, skip=True, bias=True, n_out=2),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_kernel_matches_the_subgraph_on_onnxruntime(case: OracleCase) -> None:
    assert_matches_oracle(case, 1)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


def test_shape_formulas() -> None:
    shapes = [[2, 3, 32], [2, 3, 32], [32], [8, 2, 8], [8, 2], None, [8, 2, 8], [16], None]
    attrs = {"K": 32, "N": 8, "block_size": 16, "activation": "silu"}
    assert formula_shapes(version(DOMAIN, OP, 1), shapes, attrs) == [[2, 3, 8], [2, 3, 32]]


ATTRS = {"K": 32, "N": 8, "block_size": 16, "activation": "silu"}


@pytest.mark.parametrize(("k", "value", "message"), [
    pytest.param(0, np.ones((2, 31), np.float32), "last dim", id="a_width"),
    pytest.param(1, np.ones((2, 32), np.float32), "norm_scale", id="skip_without_norm_scale"),
    pytest.param(8, np.ones(5, np.float32), "bias", id="up_bias_length"),
])
def test_kernel_rejects_invalid_input(k: int, value: np.ndarray, message: str) -> None:
    inputs = mlp_inputs((2,), 32, 8, 4, 16, norm=False, skip=False, bias=False)
    inputs[k] = value
    with pytest.raises(ValueError, match=message):
        run(DOMAIN, OP, 1, inputs, **ATTRS)


BASE: list[Any] = [[2, 32], None, None, [8, 2, 8], [8, 2], None, [8, 2, 8], [8, 2], None]


@pytest.mark.parametrize(("k", "shape", "check"), [
    pytest.param(0, [2, 31], "matmulnbitsmlp_c1", id="a_width"),
    pytest.param(6, [4, 2, 8], "matmulnbitsmlp_c2", id="up_b_rows"),
    pytest.param(4, [8, 3], "matmulnbitsmlp_c3", id="gate_scales"),
    pytest.param(5, [4], "matmulnbitsmlp_c4", id="gate_bias_length"),
    pytest.param(2, [31], "matmulnbitsmlp_c5", id="norm_scale_length"),
    pytest.param(1, [2, 32], "matmulnbitsmlp_c6", id="skip_without_norm_scale"),
])
def test_invalid_node_reports_the_check(k: int, shape: list[int], check: str) -> None:
    shapes = list(BASE)
    shapes[k] = shape
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, ATTRS)
