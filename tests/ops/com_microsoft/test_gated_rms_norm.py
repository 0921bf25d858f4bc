"""com.microsoft GatedRMSNorm: the kernel against onnxruntime's CPU kernel (each activation, per-head runs, float16)
and rejected nodes."""

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
OP = "GatedRMSNorm"
data = Seeded(23)
X, GATE = data.f32(2, 3, 12), data.f32(2, 3, 12)


def case(inputs: list[Any], attrs: dict[str, Any], id: str, rtol: float = 1e-5) -> OracleCase:
    return OracleCase(OP, attrs, inputs, (1,), oracle="ort", rtol=rtol, id=id, domain=DOMAIN)


CASES = [
    *(case([X, data.f32(c), GATE], {"activation": a, "epsilon": 0.1}, f"c{c}_{a}")
      for c in (12, 4, 3) for a in ("silu", "swish", "sigmoid")),
    case([X, data.f32(4), GATE], {}, "defaults"),
    case([X[0, 0], data.f32(6), GATE[0, 0]], {}, "rank1"),
    case([X.astype(np.float16), data.f32(4).astype(np.float16), GATE.astype(np.float16)], {"activation": "sigmoid"},
         "fp16", rtol=2e-3),
]


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_onnxruntime(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


def test_shape_formula_matches_onnxruntime() -> None:
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, [X, data.f32(4), GATE])


@pytest.mark.parametrize(("shapes", "check"), [
    pytest.param([[2, 3, 12], [5], [2, 3, 12]], "gatedrmsnorm_c1", id="not_a_multiple"),
    pytest.param([[2, 3, 12], [4], [1, 3, 12]], "gatedrmsnorm_c2", id="gate_shape"),
    pytest.param([[2, 3, 12], [2, 2], [2, 3, 12]], "rank", id="scale_2d"),
])
def test_invalid_node_reports_the_check(shapes: list[Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, {})
