"""com.microsoft MatMulIntegerToFloat: the kernel and the shape formula against onnxruntime, rejected nodes and
inputs."""

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
OP = "MatMulIntegerToFloat"
RNG = np.random.default_rng(11)


def ints(dtype: type, *shape: int) -> np.ndarray:
    info = np.iinfo(dtype)
    return RNG.integers(info.min, info.max + 1, shape).astype(dtype)


def scale(*shape: int) -> np.ndarray:
    return np.asarray(RNG.random(shape) + 0.05, np.float32)


A_U8, A_I8 = ints(np.uint8, 2, 3, 8), ints(np.int8, 2, 3, 8)
B_U8, B_I8, B3 = ints(np.uint8, 8, 5), ints(np.int8, 8, 5), ints(np.int8, 2, 8, 5)
BIAS = RNG.standard_normal(5).astype(np.float32)
S0 = np.array(0.02, np.float32)


def case(inputs: list[Any], id: str, rtol: float = 1e-6) -> OracleCase:
    return OracleCase(OP, {}, inputs, (1,), oracle="ort", rtol=rtol, id=id, domain=DOMAIN)


CASES = [
    case([A_U8, B_U8, S0, scale(), None, None, None], "u8u8_plain"),
    case([A_U8, B_I8, S0, scale(5), np.array(128, np.uint8), ints(np.int8, 5), BIAS], "u8i8_b_per_column"),
    case([A_U8, B_I8, scale(5), S0, np.array([7], np.uint8), np.array(-3, np.int8), BIAS], "a_scale_per_column"),
    case([A_I8, B_I8, S0, scale(), np.array(-5, np.int8), np.array(4, np.int8), BIAS], "i8i8_zero_points_bias"),
    case([A_U8, B3, S0, scale(2, 1, 5), np.array(3, np.uint8), ints(np.int8, 2, 1, 5), BIAS], "batched_b"),
    case([A_U8[0, 0], B_U8, S0, scale(5), None, ints(np.uint8, 5), BIAS], "one_d_a"),
    case([A_U8, B_U8[:, 0], S0, scale(1), None, None, None], "one_d_b"),
    case([A_U8, B_I8, S0.astype(np.float16), scale(5).astype(np.float16), None, None, BIAS.astype(np.float16)],
         "fp16", rtol=2e-3),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_kernel_matches_onnxruntime(case: OracleCase) -> None:
    assert_matches_oracle(case, 1)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


@pytest.mark.parametrize(("inputs", "message"), [
    pytest.param([A_U8, B_U8, scale(5), scale(5), None, None, None], "at most one", id="both_scales_per_column"),
    pytest.param([A_U8, B_U8, S0, S0, np.array([1, 2], np.uint8), None, None], "zero point of A",
                 id="a_zero_point_vector"),
    pytest.param([A_U8, B3, S0, scale(5), None, None, None], "per column", id="n_vector_beside_batched_b"),
    pytest.param([A_U8, B_U8, S0, S0, None, None, scale(4)], "bias", id="bias_length"),
])
def test_kernel_rejects_invalid_input(inputs: list[Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run(DOMAIN, OP, 1, inputs)


@pytest.mark.parametrize("inputs", [c.inputs for c in CASES[:7]], ids=[c.id for c in CASES[:7]])
def test_shape_formula_matches_onnxruntime(inputs: list[Any]) -> None:
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, inputs)


@pytest.mark.parametrize(("shapes", "check"), [
    pytest.param([[2, 8], [7, 5], [], []], "matmulintegertofloat_c2", id="k_mismatch"),
    pytest.param([[2, 3, 8], [4, 8, 5], [], []], "matmulintegertofloat_c3", id="batch"),
    pytest.param([[2, 8], [8, 5], [4], []], "matmulintegertofloat_c4", id="a_scale_length"),
    pytest.param([[2, 8], [2, 8, 5], [], [5]], "matmulintegertofloat_c5", id="b_scale_n_beside_batched_b"),
    pytest.param([[2, 8], [8, 5], [5], [5]], "matmulintegertofloat_c6", id="both_per_column"),
    pytest.param([[2, 8], [8, 5], [], [], [2]], "matmulintegertofloat_c7", id="a_zero_point_vector"),
    pytest.param([[2, 8], [8, 5], [], [], None, [4]], "matmulintegertofloat_c8", id="b_zero_point_length"),
    pytest.param([[2, 8], [8, 5], [], [], None, None, [4]], "matmulintegertofloat_c9", id="bias_length"),
    pytest.param([[2, 8], [8], [], [], None, None, [1]], "matmulintegertofloat_c9", id="bias_one_d_b"),
])
def test_invalid_node_reports_the_check(shapes: list[Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, {})
