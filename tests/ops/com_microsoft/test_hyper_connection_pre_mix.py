"""com.microsoft HyperConnectionPreMix: the kernel against onnxruntime's CPU kernel (grouped and flattened streams,
every gate form, reduction_scale, float16), the shape formula against onnxruntime, rejected nodes under their
constraint ids, and a value by hand."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    Seeded,
    assert_matches_oracle,
    assert_registry_ranges_exercised,
    oracle_params,
    problem_checks,
    run,
    version,
)
from tests.helpers.ort_outputs import assert_output_shapes_match_onnxruntime

DOMAIN = "com.microsoft"
OP = "HyperConnectionPreMix"
f32 = Seeded(41).f32
L, C, H = (2, 3), 4, 5


def _case(ident: str, attrs: dict[str, Any], inputs: list[np.ndarray], rtol: float = 1e-5) -> OracleCase:
    return OracleCase(OP, attrs, inputs, (1,), oracle="ort", rtol=rtol, id=ident, domain=DOMAIN)


CASES = [
    _case("grouped-per-branch", {}, [f32(*L, C, H), f32(*L, C)]),
    _case("grouped-C1-scaled", {"reduction_scale": 0.5}, [f32(*L, C, H), f32(*L, C, 1)]),
    _case("grouped-per-feature", {}, [f32(*L, C, H), f32(*L, C, H)]),
    _case("grouped-no-lead", {"reduction_scale": 2.0}, [f32(C, H), f32(C)]),
    _case("flat-flat-gates", {"num_branches": C}, [f32(*L, C * H), f32(*L, C * H)]),
    _case("flat-per-branch", {"num_branches": C}, [f32(*L, C * H), f32(*L, C)]),
    _case("flat-grouped-gates", {"num_branches": C}, [f32(*L, C * H), f32(*L, C, H)]),
    _case("float16", {}, [f32(*L, C, H).astype(np.float16), f32(*L, C).astype(np.float16)], rtol=2e-3),
]


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_onnxruntime(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


def test_value_by_hand() -> None:
    streams = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], np.float32)  # C = 3, H = 2
    gates = np.array([1.0, 0.0, -1.0], np.float32)
    got = run(DOMAIN, OP, 1, [streams, gates], num_branches=0, reduction_scale=0.5)[0]
    np.testing.assert_allclose(got, [-2.0, -2.0])


@pytest.mark.parametrize(("inputs", "attrs"), [
    pytest.param([f32(*L, C, H), f32(*L, C)], {}, id="grouped"),
    pytest.param([f32(*L, C * H), f32(*L, C * H)], {"num_branches": C}, id="flat"),
])
def test_shape_formula_matches_onnxruntime(inputs: list[np.ndarray], attrs: dict[str, Any]) -> None:
    assert_output_shapes_match_onnxruntime(DOMAIN, OP, 1, inputs, attrs)


@pytest.mark.parametrize(("shapes", "attrs", "check"), [
    pytest.param([[2, 7], [2, 7]], {"num_branches": 3}, "hyperconnectionpremix_c1", id="flat_width"),
    pytest.param([[5], [5]], {}, "hyperconnectionpremix_c2", id="grouped_rank"),
    pytest.param([[2, C, H], [2, C + 1]], {}, "hyperconnectionpremix_c3", id="gate_shape"),
    pytest.param([[2, C, H], [2, C * H]], {}, "hyperconnectionpremix_c3", id="flat_gate_on_grouped"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int]], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, attrs)
