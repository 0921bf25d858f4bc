"""com.microsoft BranchwiseRMSNorm: the kernel against onnxruntime's CPU kernel (grouped and flat input, each scale
shape, no scale, mixed types) and rejected nodes."""

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
    oracle_params,
    problem_checks,
    version,
)

DOMAIN = "com.microsoft"
OP = "BranchwiseRMSNorm"
data = Seeded(29)
X = data.f32(2, 3, 4, 5)
FLAT = X.reshape(2, 3, 20)
SCALES = {"none": None, "flat": data.f32(20), "grouped": data.f32(4, 5), "shared": data.f32(5)}


def case(inputs: list[Any], attrs: dict[str, Any], id: str, rtol: float = 1e-5) -> OracleCase:
    return OracleCase(OP, attrs, inputs, (1,), oracle="ort", rtol=rtol, id=id, domain=DOMAIN)


CASES = [
    *(case([X, s], {"epsilon": 0.01}, f"grouped_{k}") for k, s in SCALES.items()),
    *(case([FLAT, s], {"num_branches": 4}, f"flat_{k}") for k, s in SCALES.items()),
    case([X.astype(np.float16), SCALES["grouped"]], {}, "fp16_x_float_scale", rtol=2e-3),
    case([X, data.f32(5).astype(np.float16)], {}, "float_x_fp16_scale"),
]


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_onnxruntime(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


def test_shape_formula_matches_onnxruntime() -> None:
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, [FLAT, SCALES["flat"]], {"num_branches": 4})


@pytest.mark.parametrize(("shapes", "attrs", "check"), [
    pytest.param([[5]], {}, "branchwisermsnorm_c1", id="grouped_rank1"),
    pytest.param([[2, 3, 20]], {"num_branches": 3}, "branchwisermsnorm_c2", id="flat_not_a_multiple"),
    pytest.param([[2, 4, 5], [4]], {}, "branchwisermsnorm_c3", id="scale_per_branch_only"),
])
def test_invalid_node_reports_the_check(shapes: list[Any], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, attrs)
