"""com.microsoft DequantizeLinear: the kernel and the shape formula against onnxruntime, rejected nodes and inputs."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    Seeded,
    assert_matches_oracle,
    assert_registry_ranges_exercised,
    assert_shapes_match_onnxruntime,
    kernel_outputs,
    oracle_params,
    problem_checks,
    run,
    version,
)

DOMAIN = "com.microsoft"
OP = "DequantizeLinear"
RAND = Seeded(7)


def case(inputs: list[np.ndarray], attrs: dict[str, Any], id: str, rtol: float = 1e-5) -> OracleCase:
    return OracleCase(OP, attrs, inputs, (1,), oracle="ort", rtol=rtol, id=id, domain=DOMAIN)


CASES = [
    case([RAND.ints(0, 256, (2, 3, 4), np.uint8), np.array(0.3, np.float32), np.array(128, np.uint8)], {}, "uint8"),
    case([RAND.ints(-128, 128, (2, 3, 4), np.int8), np.array(0.3, np.float32)], {}, "int8_no_zp"),
    case([RAND.ints(-30000, 30000, (5,), np.int16), np.array(0.01, np.float32), np.array(-4, np.int16)], {}, "int16"),
    case([RAND.ints(0, 65535, (5,), np.uint16), np.array(0.01, np.float32), np.array(9, np.uint16)], {}, "uint16"),
    case([RAND.ints(-2**31, 2**31 - 1, (6,), np.int32), np.array(0.001, np.float32)], {}, "int32"),
    case([RAND.ints(0, 256, (2, 3, 4), np.uint8), np.array([0.1, 0.2, 0.3], np.float32),
          np.array([1, 128, 255], np.uint8)], {"axis": 1}, "per_axis"),
    case([RAND.ints(0, 256, (2, 3), np.uint8), np.array(0.25, np.float16), np.array(3, np.uint8)], {}, "fp16_scale",
         rtol=2e-3),
    # per tensor in mixed ranks, as onnxruntime's quantization tool writes them (an int32 bias: [1] scale, [] zero)
    case([RAND.ints(-2**20, 2**20, (6,), np.int32), np.array([0.001], np.float32), np.array(0, np.int32)], {},
         "scale_1_zero_point_scalar"),
    case([RAND.ints(0, 256, (2, 3), np.uint8), np.array(0.3, np.float32), np.array([128], np.uint8)], {},
         "scale_scalar_zero_point_1"),
]


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_onnxruntime(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)
    assert len(kernel_outputs(case, opset)) == 1


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


@pytest.mark.parametrize(("inputs", "attrs", "message"), [
    pytest.param([np.zeros(3, np.uint8), np.array(1.0, np.float32), np.array(0, np.int8)], {}, "zero point type",
                 id="v1-zero_point_type"),
])
def test_kernel_rejects_invalid_input(inputs: list[np.ndarray], attrs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run(DOMAIN, OP, 1, inputs, **attrs)


X, SCALE = np.arange(24, dtype=np.uint8).reshape(2, 3, 4), np.array(0.5, np.float32)


@pytest.mark.parametrize(("inputs", "attrs"), [
    pytest.param([X, SCALE, np.array(3, np.uint8)], {}, id="v1-per_tensor"),
    pytest.param([X, SCALE], {}, id="v1-no_zero_point"),
    pytest.param([X, np.full(3, 0.25, np.float32), np.zeros(3, np.uint8)], {"axis": 1}, id="v1-per_axis"),
    pytest.param([X, np.full(4, 0.25, np.float32)], {"axis": -1}, id="v1-per_axis_neg"),
])
def test_shape_formula_matches_onnxruntime(inputs: list[np.ndarray], attrs: dict[str, Any]) -> None:
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, inputs, attrs)


@pytest.mark.parametrize(("shapes", "attrs", "check"), [
    pytest.param([[2, 3, 4], [3]], {}, "dequantizelinear_c2", id="v1-scale_not_scalar"),
    pytest.param([[2, 3, 4], [4]], {"axis": 1}, "dequantizelinear_c2", id="v1-scale_length"),
    pytest.param([[2, 3, 4], [4]], {"axis": 3}, "dequantizelinear_c1", id="v1-axis_out_of_range"),
    pytest.param([[2, 3, 4], [3], [4]], {"axis": 1}, "dequantizelinear_c3", id="v1-zero_point_length"),
    pytest.param([[2, 3, 4], [1], [2]], {}, "dequantizelinear_c3", id="v1-zero_point_not_per_tensor"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int]], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, attrs)


@pytest.mark.parametrize(("scale", "zero_point"), [([1], []), ([], [1]), ([1], [1]), ([], [])])
def test_a_one_element_scale_and_zero_point_are_per_tensor_in_either_rank(scale: list[int],
                                                                         zero_point: list[int]) -> None:
    """As ai.onnx's DequantizeLinear takes them and onnxruntime's quantization tool writes them (a [1] scale with a []
    zero point): the zero point's shape is not bound to the scale's."""
    assert problem_checks(version(DOMAIN, OP, 1), [[2, 3, 4], scale, zero_point], {}) == []
