"""com.microsoft MatMulNBitsQkv: onnxruntime implements it on WebGPU only, so the kernel is checked against the
equivalent subgraph run by onnxruntime's CPU kernels (Add for the skip, the RMS normalization as ai.onnx nodes,
three com.microsoft MatMulNBits); the shape formulas, rejected nodes and inputs."""

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
OP = "MatMulNBitsQkv"
RNG = np.random.default_rng(21)
NAMES = ["A", "skip", "norm_scale", "q_B", "q_scales", "q_bias", "k_B", "k_scales", "k_bias", "v_B", "v_scales",
         "v_bias"]


def subgraph(inputs: list[np.ndarray | None], attrs: dict[str, Any], n_out: int) -> list[np.ndarray]:
    """The op as CPU nodes: x = A (+ skip); x / sqrt(mean(x^2) + epsilon) * norm_scale; three MatMulNBits."""
    given = {name: v for name, v in zip(NAMES, inputs, strict=True) if v is not None}
    eps = helper.make_tensor("eps", TensorProto.FLOAT, [], [attrs.get("epsilon", 1e-6)])
    nodes = [helper.make_node("Add", ["A", "skip"], ["x"]) if "skip" in given else
             helper.make_node("Identity", ["A"], ["x"]),
             helper.make_node("Mul", ["x", "x"], ["sq"]),
             helper.make_node("ReduceMean", ["sq"], ["ms"], axes=[-1], keepdims=1),
             helper.make_node("Constant", [], ["eps"], value=eps),
             helper.make_node("Add", ["ms", "eps"], ["mse"]), helper.make_node("Sqrt", ["mse"], ["rms"]),
             helper.make_node("Div", ["x", "rms"], ["xn"]), helper.make_node("Mul", ["xn", "norm_scale"], ["normed"])]
    common = {k: attrs[k] for k in ("K", "bits", "block_size") if k in attrs}
    for p, n in (("q", attrs["Nq"]), ("k", attrs["Nkv"]), ("v", attrs["Nkv"])):
        ins = ["normed", f"{p}_B", f"{p}_scales", "", "", f"{p}_bias" if f"{p}_bias" in given else ""]
        nodes.append(helper.make_node("MatMulNBits", ins, [f"{p}_out"], domain=DOMAIN, N=n, **common))
    outs = ["q_out", "k_out", "v_out", "x"][:n_out]
    graph = helper.make_graph(nodes, "g", [], [helper.make_tensor_value_info(o, TensorProto.FLOAT, None) for o in outs],
                              initializer=[numpy_helper.from_array(v, k) for k, v in given.items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid(DOMAIN, 1)])
    model.ir_version = 8
    return run_onnxruntime(model, {})


def packed(rows: int, k: int, bits: int, block: int) -> tuple[np.ndarray, np.ndarray]:
    kb = -(-k // block)
    return (RNG.integers(0, 256, (rows, kb, block * bits // 8)).astype(np.uint8),
            RNG.uniform(0.01, 0.1, (rows, kb)).astype(np.float32))


def qkv_inputs(lead: tuple[int, ...], k: int, nq: int, nkv: int, bits: int, block: int, *, skip: bool,
               bias: bool) -> list[np.ndarray | None]:
    a = RNG.uniform(-2, 2, (*lead, k)).astype(np.float32)
    out: list[np.ndarray | None] = [a, RNG.uniform(-1, 1, a.shape).astype(np.float32) if skip else None,
                                    RNG.uniform(0.5, 1.5, k).astype(np.float32)]
    for n in (nq, nkv, nkv):
        out += [*packed(n, k, bits, block), RNG.uniform(-1, 1, n).astype(np.float32) if bias else None]
    return out


def case(lead: tuple[int, ...], k: int, nq: int, nkv: int, bits: int, block: int, id: str, *, skip: bool = False,
         bias: bool = False, n_out: int = 3, epsilon: float | None = None) -> OracleCase:
    inputs = qkv_inputs(lead, k, nq, nkv, bits, block, skip=skip, bias=bias)
    attrs: dict[str, Any] = {"K": k, "Nq": nq, "Nkv": nkv, "bits": bits, "block_size": block}
    if epsilon is not None:
        attrs["epsilon"] = epsilon
    return OracleCase(OP, attrs, inputs, (1,), n_out=n_out, rtol=1e-4, id=id, domain=DOMAIN,
                      oracle=lambda: subgraph(inputs, attrs, n_out))


CASES = [
    case((2, 3), 32, 8, 4, 4, 16, "rms_norm"),
    case((3,), 40, 6, 2, 4, 32, "partial_block_bias", bias=True),
    case((2, 2), 16, 4, 4, 8, 16, "skip_sum_output", skip=True, n_out=4),
    case((1, 2), 24, 5, 3, 2, 16, "two_bits_skip_bias", skip=True, bias=True, epsilon=0.25),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_kernel_matches_the_subgraph_on_onnxruntime(case: OracleCase) -> None:
    assert_matches_oracle(case, 1)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


def test_shape_formulas() -> None:
    shapes = [[2, 3, 32], None, [32], [8, 2, 8], [8, 2], None, [4, 2, 8], [4, 2], None, [4, 2, 8], [4, 2], None]
    attrs = {"K": 32, "Nq": 8, "Nkv": 4, "block_size": 16}
    assert formula_shapes(version(DOMAIN, OP, 1), shapes, attrs) == [[2, 3, 8], [2, 3, 4], [2, 3, 4], [2, 3, 32]]


@pytest.mark.parametrize(("k", "value", "message"), [
    pytest.param(0, np.ones((2, 31), np.float32), "last dim", id="a_width"),
    pytest.param(2, np.ones(31, np.float32), "norm_scale", id="norm_scale_length"),
    pytest.param(8, np.ones(5, np.float32), "bias", id="k_bias_length"),
    pytest.param(1, np.ones((1, 32), np.float32), "skip", id="skip_shape"),
])
def test_kernel_rejects_invalid_input(k: int, value: np.ndarray, message: str) -> None:
    inputs = qkv_inputs((2,), 32, 8, 4, 4, 16, skip=False, bias=False)
    inputs[k] = value
    with pytest.raises(ValueError, match=message):
        run(DOMAIN, OP, 1, inputs, K=32, Nq=8, Nkv=4, block_size=16)


BASE: list[Any] = [[2, 32], None, [32], [8, 2, 8], [8, 2], None, [4, 2, 8], [4, 2], None, [4, 2, 8], [4, 2], None]


@pytest.mark.parametrize(("k", "shape", "check"), [
    pytest.param(0, [2, 31], "matmulnbitsqkv_c1", id="a_width"),
    pytest.param(1, [1, 32], "matmulnbitsqkv_c1", id="skip_shape"),
    pytest.param(6, [8, 2, 8], "matmulnbitsqkv_c2", id="k_b_rows"),
    pytest.param(10, [4, 3], "matmulnbitsqkv_c3", id="v_scales"),
    pytest.param(5, [4], "matmulnbitsqkv_c4", id="q_bias_length"),
])
def test_invalid_node_reports_the_check(k: int, shape: list[int], check: str) -> None:
    shapes = list(BASE)
    shapes[k] = shape
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, {"K": 32, "Nq": 8, "Nkv": 4, "block_size": 16})
