"""com.microsoft GroupNorm and its shape formula. onnxruntime has only a CUDA kernel, so the kernel is checked against
the equivalent ai.onnx subgraph run by onnxruntime's CPU provider (Transpose to NCHW, Reshape into groups,
ReduceMean, Sub, Mul, Sqrt, Div, Reshape back, Mul gamma, Add beta, Sigmoid * y for SiLU, Transpose back)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    Seeded,
    assert_matches_oracle,
    assert_registry_ranges_exercised,
    formula_shapes,
    oracle_params,
    problem_checks,
    version,
)
from tests.helpers.ort_subgraphs import group_norm_subgraph

DOMAIN = "com.microsoft"
OP = "GroupNorm"
data = Seeded(31)


def case(x: np.ndarray, attrs: dict[str, Any], id: str, rtol: float = 1e-5) -> OracleCase:
    c = x.shape[3] if attrs["channels_last"] else x.shape[1]
    gamma, beta = data.f32(c), data.f32(c)
    oracle = group_norm_subgraph(x, gamma, beta, **attrs)
    return OracleCase(OP, attrs, [x, gamma, beta], (1,), oracle=oracle, rtol=rtol, id=id, domain=DOMAIN)


CASES = [
    *(case(data.f32(2, 3, 4, 6) if last else data.f32(2, 6, 3, 4),
           {"groups": g, "activation": act, "channels_last": last, "epsilon": 1e-5}, f"g{g}_act{act}_last{last}")
      for g in (1, 2, 6) for act in (0, 1) for last in (0, 1)),
    case(data.f32(1, 2, 2, 4) * 3 + 1, {"groups": 2, "activation": 1, "channels_last": 1, "epsilon": 0.5}, "epsilon"),
    case(data.f32(2, 3, 3, 4).astype(np.float16), {"groups": 2, "activation": 1, "channels_last": 1, "epsilon": 1e-5},
         "fp16", rtol=3e-3),
]


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_the_onnx_subgraph(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


def test_shape_formula_keeps_the_input_shape() -> None:
    for c in CASES:
        assert formula_shapes(version(DOMAIN, OP, 1), c.inputs, c.attrs) == [list(c.inputs[0].shape)]


@pytest.mark.parametrize(("shapes", "attrs", "check"), [
    pytest.param([[2, 3, 6], [6], [6]], {}, "groupnorm_c1", id="rank3"),
    pytest.param([[2, 3, 4, 6], [6], [6]], {"groups": 4}, "groupnorm_c2", id="groups_not_dividing"),
    pytest.param([[2, 6, 4, 3], [6], [6]], {"channels_last": 0, "groups": 4}, "groupnorm_c2", id="nchw_groups"),
    pytest.param([[2, 3, 4, 6], [3], [6]], {}, "groupnorm_c3", id="gamma_length"),
])
def test_invalid_node_reports_the_check(shapes: list[Any], attrs: dict[str, Any], check: str) -> None:
    attrs = {"groups": 2, "activation": 0, **attrs}
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, attrs)
