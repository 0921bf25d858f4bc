"""com.microsoft DynamicQuantizeMatMul: the kernel (A's dynamic quantization included) and the shape formula
against onnxruntime, rejected nodes and inputs."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    assert_matches_oracle,
    assert_registry_ranges_exercised,
    assert_shapes_match_onnxruntime,
    problem_checks,
    run,
    version,
)

DOMAIN = "com.microsoft"
OP = "DynamicQuantizeMatMul"
RNG = np.random.default_rng(12)


def floats(*shape: int, lo: float = -3.0, hi: float = 3.0) -> np.ndarray:
    return RNG.uniform(lo, hi, shape).astype(np.float32)


B_U8 = RNG.integers(0, 256, (8, 5)).astype(np.uint8)
B_I8 = RNG.integers(-128, 128, (8, 5)).astype(np.int8)
BIAS = floats(5)
S0 = np.array(0.03, np.float32)


def case(inputs: list[Any], id: str) -> OracleCase:
    return OracleCase(OP, {}, inputs, (1,), oracle="ort", rtol=1e-6, id=id, domain=DOMAIN)


CASES = [
    case([floats(2, 3, 8), B_U8, S0, None, None], "u8_plain"),
    case([floats(4, 8), B_I8, floats(5, lo=0.1, hi=1), RNG.integers(-9, 9, 5).astype(np.int8), BIAS],
         "i8_per_column_bias"),
    case([floats(4, 8, lo=0.5, hi=9), B_U8, S0, np.array(100, np.uint8), BIAS], "positive_a"),
    case([floats(4, 8, lo=-9, hi=-0.5), B_I8, S0, None, None], "negative_a"),
    case([np.zeros((2, 8), np.float32), B_I8, S0, None, BIAS], "zero_a"),
    case([floats(4, 8, lo=-1e-3, hi=1e-3), B_I8, S0, None, None], "tiny_range"),
    case([floats(2, 4, 8), RNG.integers(-128, 128, (2, 8, 5)).astype(np.int8), floats(2, 1, 5, lo=0.1, hi=1),
          RNG.integers(-9, 9, (2, 1, 5)).astype(np.int8), BIAS], "batched_b"),
    case([floats(8), B_U8, S0, None, BIAS], "one_d_a"),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_kernel_matches_onnxruntime(case: OracleCase) -> None:
    assert_matches_oracle(case, 1)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


@pytest.mark.parametrize(("inputs", "message"), [
    pytest.param([floats(2, 8), B_U8, floats(4), None, None], "per column", id="b_scale_length"),
    pytest.param([floats(2, 8), B_U8, S0, None, floats(4)], "bias", id="bias_length"),
    pytest.param([floats(2, 7), B_U8, S0, None, None], "contracted", id="k_mismatch"),
])
def test_kernel_rejects_invalid_input(inputs: list[Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run(DOMAIN, OP, 1, inputs)


@pytest.mark.parametrize("inputs", [c.inputs for c in CASES], ids=[c.id for c in CASES])
def test_shape_formula_matches_onnxruntime(inputs: list[Any]) -> None:
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, inputs)


@pytest.mark.parametrize(("shapes", "check"), [
    pytest.param([[2, 8], [7, 5], []], "dynamicquantizematmul_c2", id="k_mismatch"),
    pytest.param([[2, 3, 8], [4, 8, 5], []], "dynamicquantizematmul_c3", id="batch"),
    pytest.param([[2, 8], [8, 5], [4]], "dynamicquantizematmul_c4", id="b_scale_length"),
    pytest.param([[2, 8], [8, 5], [], [3]], "dynamicquantizematmul_c5", id="b_zero_point_length"),
    pytest.param([[2, 8], [8, 5], [], None, [4]], "dynamicquantizematmul_c6", id="bias_length"),
])
def test_invalid_node_reports_the_check(shapes: list[Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, {})
