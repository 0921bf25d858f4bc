"""com.microsoft MatMulBnb4: the kernel against onnxruntime's CPU kernel (FP4 and NF4 codes, block sizes, an odd
code count, A of several ranks), transB 0 against the text (reading r1) with a hand-derived weight, the shape
formula against onnxruntime, rejected nodes and inputs."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from conformance.kernels.com_microsoft.mat_mul_bnb4 import FP4, NF4
from tests.helpers import (
    OracleCase,
    assert_examples_match_kernel_and_formula,
    assert_matches_oracle,
    assert_registry_ranges_exercised,
    assert_shapes_match_onnxruntime,
    problem_checks,
    run,
    version,
)

DOMAIN = "com.microsoft"
OP = "MatMulBnb4"
RNG = np.random.default_rng(5)


def weights(n: int, k: int, block: int) -> tuple[np.ndarray, np.ndarray]:
    count = n * k
    return (RNG.integers(0, 256, (count + 1) // 2).astype(np.uint8),
            RNG.uniform(0.25, 2.0, -(-count // block)).astype(np.float32))


def case(a_shape: tuple[int, ...], n: int, k: int, block: int, quant_type: int, id: str) -> OracleCase:
    b, absmax = weights(n, k, block)
    a = RNG.uniform(-1, 1, a_shape).astype(np.float32)
    return OracleCase(OP, {"K": k, "N": n, "block_size": block, "quant_type": quant_type}, [a, b, absmax], (1,),
                      oracle="ort", rtol=1e-5, id=id, domain=DOMAIN)


CASES = [
    case((3, 16), 5, 16, 16, 1, "nf4"),
    case((3, 16), 5, 16, 16, 0, "fp4"),
    case((2, 2, 7), 3, 7, 16, 0, "odd_count_rank3"),
    case((7,), 9, 7, 32, 1, "vector_a"),
    case((2, 40), 6, 40, 64, 1, "blocks_across_rows"),
    case((1, 2, 3, 24), 4, 24, 256, 0, "one_block"),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_kernel_matches_onnxruntime(case: OracleCase) -> None:
    assert_matches_oracle(case, 1)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


def test_codes_decode_high_nibble_first_by_their_table() -> None:
    """Hand-derived: byte 0x1E is codes 1 then 14; block 0 (16 codes) has absmax 2, block 1 absmax 0.5."""
    b = np.array([0x1E] + [0x00] * 7 + [0xF0] + [0x00] * 7, np.uint8)
    absmax = np.array([2.0, 0.5], np.float32)
    a = np.eye(16, dtype=np.float32)[:2]  # picks the weight's first two columns, rows 0 and 1 (N=2, K=16)
    for quant_type, table in ((0, FP4), (1, NF4)):
        y = run(DOMAIN, OP, 1, [a, b, absmax], K=16, N=2, block_size=16, quant_type=quant_type)[0]
        want = np.array([[table[1] * 2, table[15] * 0.5], [table[14] * 2, table[0] * 0.5]], np.float32)
        np.testing.assert_allclose(y, want, rtol=1e-6)


def test_trans_b_0_multiplies_by_the_weight() -> None:
    """Reading r1 (onnxruntime's CPU kernel transposes anyway): A [.., N] @ W [N, K]."""
    b, absmax = weights(3, 4, 16)
    a = RNG.uniform(-1, 1, (2, 3)).astype(np.float32)
    y = run(DOMAIN, OP, 1, [a, b, absmax], K=4, N=3, block_size=16, quant_type=1, transB=0)[0]
    w = run(DOMAIN, OP, 1, [np.eye(4, dtype=np.float32), b, absmax], K=4, N=3, block_size=16, quant_type=1)[0].T
    assert y.shape == (2, 4)
    np.testing.assert_allclose(y, a @ w, rtol=1e-6)


@pytest.mark.parametrize(("inputs", "attrs", "message"), [
    pytest.param([np.zeros((2, 5), np.float32), *weights(3, 4, 16)], {}, "last dim", id="a_width"),
    pytest.param([np.zeros((2, 4), np.float32), weights(3, 5, 16)[0], weights(3, 4, 16)[1]], {}, "B must be",
                 id="b_length"),
])
def test_kernel_rejects_invalid_input(inputs: list[np.ndarray], attrs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run(DOMAIN, OP, 1, inputs, K=4, N=3, block_size=16, quant_type=0, **attrs)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_shape_formula_matches_onnxruntime(case: OracleCase) -> None:
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, case.inputs, case.attrs)


ATTRS = {"K": 4, "N": 3, "block_size": 16, "quant_type": 0}


@pytest.mark.parametrize(("shapes", "attrs", "check"), [
    pytest.param([[2, 5], [6], [1]], {}, "matmulbnb4_c1", id="a_width"),
    pytest.param([[2, 4], [6], [1]], {"transB": 0}, "matmulbnb4_c1", id="a_width_trans_b_0"),
    pytest.param([[2, 4], [12], [1]], {}, "matmulbnb4_c2", id="b_unpacked"),
    pytest.param([[2, 4], [6], [2]], {}, "matmulbnb4_c3", id="absmax_count"),
])
def test_invalid_node_reports_the_check(shapes: list[Any], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, {**ATTRS, **attrs})


def test_examples_match_kernel_and_formula() -> None:
    assert_examples_match_kernel_and_formula(DOMAIN, OP)
