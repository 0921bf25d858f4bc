"""com.microsoft MatMulNBitsQLoRA: onnxruntime's CPU provider has no kernel for it, so the kernel is checked against
the equivalent subgraph of three com.microsoft MatMulNBits (base, down, up) and an Add run by onnxruntime; empty
adapters, the shape formula, rejected nodes and inputs."""

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
OP = "MatMulNBitsQLoRA"
RNG = np.random.default_rng(23)


def packed(rows: int, k: int, bits: int, block: int) -> tuple[np.ndarray, np.ndarray]:
    kb = -(-k // block)
    return (RNG.integers(0, 256, (rows, kb, block * bits // 8)).astype(np.uint8),
            RNG.uniform(0.01, 0.1, (rows, kb)).astype(np.float32))


def subgraph(inputs: list[np.ndarray], k: int, n: int, rank: int, attrs: dict[str, Any]) -> list[np.ndarray]:
    names = ["X", "W", "scales", "lora_A", "lora_A_scales", "lora_B", "lora_B_scales"]
    bits, block = attrs.get("bits", 4), attrs.get("block_size", 32)
    lbits, lblock = attrs.get("lora_bits", 8), attrs.get("lora_block_size", 32)
    nodes = [helper.make_node("MatMulNBits", ["X", "W", "scales"], ["base"], domain=DOMAIN, K=k, N=n, bits=bits,
                              block_size=block),
             helper.make_node("MatMulNBits", ["X", "lora_A", "lora_A_scales"], ["down"], domain=DOMAIN, K=k, N=rank,
                              bits=lbits, block_size=lblock),
             helper.make_node("MatMulNBits", ["down", "lora_B", "lora_B_scales"], ["up"], domain=DOMAIN, K=rank, N=n,
                              bits=lbits, block_size=lblock),
             helper.make_node("Add", ["base", "up"], ["y"])]
    graph = helper.make_graph(nodes, "g", [], [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              initializer=[numpy_helper.from_array(v, k) for k, v in zip(names, inputs, strict=True)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid(DOMAIN, 1)])
    model.ir_version = 8
    return run_onnxruntime(model, {})


def qlora_inputs(lead: tuple[int, ...], k: int, n: int, rank: int, attrs: dict[str, Any]) -> list[np.ndarray]:
    bits, block = attrs.get("bits", 4), attrs.get("block_size", 32)
    lbits, lblock = attrs.get("lora_bits", 8), attrs.get("lora_block_size", 32)
    return [RNG.uniform(-2, 2, (*lead, k)).astype(np.float32), *packed(n, k, bits, block),
            *packed(rank, k, lbits, lblock), *packed(n, rank, lbits, lblock)]


def case(lead: tuple[int, ...], k: int, n: int, rank: int, attrs: dict[str, Any], id: str) -> OracleCase:
    inputs = qlora_inputs(lead, k, n, rank, attrs)
    return OracleCase(OP, {"K": k, "N": n, **attrs}, list(inputs), (1,), rtol=1e-4, id=id, domain=DOMAIN,
                      oracle=lambda: subgraph(inputs, k, n, rank, attrs))


CASES = [
    case((2, 3), 32, 8, 4, {}, "defaults"),
    case((3,), 40, 6, 20, {"bits": 8, "block_size": 16, "lora_bits": 4, "lora_block_size": 16}, "partial_blocks"),
    case((2,), 64, 5, 3, {"bits": 2, "lora_bits": 2, "lora_block_size": 64}, "two_bits"),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_kernel_matches_the_subgraph_on_onnxruntime(case: OracleCase) -> None:
    assert_matches_oracle(case, 1)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


def test_empty_adapters_give_the_base_projection() -> None:
    x, w, s, a, a_s, b, b_s = qlora_inputs((2,), 32, 8, 4, {})
    base = run(DOMAIN, OP, 1, [x, w, s, a, a_s, b[:, :0], b_s], K=32, N=8)[0]
    no_down = run(DOMAIN, OP, 1, [x, w, s, a[:0], a_s, b, b_s], K=32, N=8)[0]
    full = run(DOMAIN, OP, 1, [x, w, s, a, a_s, b, b_s], K=32, N=8)[0]
    np.testing.assert_array_equal(base, no_down)
    assert not np.allclose(full, base)


def test_shape_formula() -> None:
    shapes = [[2, 3, 32], [8, 1, 16], [8, 1], [4, 1, 32], [4, 1], [8, 1, 32], [8, 1]]
    assert formula_shapes(version(DOMAIN, OP, 1), shapes, {"K": 32, "N": 8}) == [[2, 3, 8]]


@pytest.mark.parametrize(("shapes", "check"), [
    pytest.param([[2, 31], [8, 1, 16], [8, 1], [4, 1, 32], [4, 1], [8, 1, 32], [8, 1]], "matmulnbitsqlora_c1",
                 id="x_width"),
    pytest.param([[2, 32], [8, 2, 16], [8, 1], [4, 1, 32], [4, 1], [8, 1, 32], [8, 1]], "matmulnbitsqlora_c2",
                 id="w_blocks"),
])
def test_invalid_node_reports_the_check(shapes: list[Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, {"K": 32, "N": 8})


def test_kernel_rejects_a_narrow_x() -> None:
    x, *rest = qlora_inputs((2,), 32, 8, 4, {})
    with pytest.raises(ValueError, match="last dim"):
        run(DOMAIN, OP, 1, [x[:, :31], *rest], K=32, N=8)
