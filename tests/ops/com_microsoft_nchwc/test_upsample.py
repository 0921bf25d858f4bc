"""com.microsoft.nchwc Upsample: the kernel against onnxruntime's CPU kernel (nearest, and linear with each
coordinate transformation), its shape formula against onnxruntime's shapes, and rejected nodes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    Seeded,
    assert_shapes_match_onnxruntime,
    oracle_tests,
    problem_checks,
    ramp,
    run,
    version,
)

DOMAIN = "com.microsoft.nchwc"
OP = "Upsample"
f32 = Seeded(16).f32


def _case(x: np.ndarray, cid: str, **attrs: Any) -> OracleCase:
    return OracleCase(OP, attrs, [x], (1,), oracle="ort", rtol=1e-5, id=cid, domain=DOMAIN)


CASES = [
    _case(f32(2, 32, 3, 4), "nearest", scales=[1, 1, 2, 3]),
    _case(f32(1, 16, 3, 4), "nearest-identity", scales=[1, 1, 1, 1]),
    _case(f32(1, 16, 3, 4), "linear-asymmetric", scales=[1, 1, 2, 3], mode="linear"),
    _case(f32(1, 16, 3, 4), "linear-align-corners", scales=[1, 1, 3, 2], mode="linear",
          coordinate_transformation_mode="align_corners"),
    _case(f32(1, 32, 3, 4), "linear-half-pixel", scales=[1, 1, 3, 4], mode="linear",
          coordinate_transformation_mode="half_pixel"),
    _case(f32(1, 16, 3, 4), "linear-one-axis", scales=[1, 1, 1, 2], mode="linear",
          coordinate_transformation_mode="half_pixel"),
]
SHAPES = [("2x3", [ramp(1, 16, 3, 5)], {"scales": [1, 1, 2, 3]})]
REJECTED = [
    ([[1, 20, 2, 2]], {"scales": [1, 1, 2, 2]}, "upsample_c1"),
    ([[1, 16, 2, 2]], {"scales": [1, 2, 2, 2]}, "upsample_c2"),
    ([[1, 16, 2, 2]], {"scales": [1, 1, 2, 2], "coordinate_transformation_mode": "half_pixel"}, "upsample_c3"),
    ([[1, 16, 2, 2]], {}, "upsample_c0"),
    ([[1, 16, 2, 2]], {"scales": [1, 1, 2]}, "attr_length"),
    ([[1, 16, 2, 2]], {"scales": [1, 1, 0, 2]}, "attr_range"),
]
INVALID = [
    ("no-scales", [ramp(1, 16, 2, 2)], {}),
    ("nearest-half-pixel", [ramp(1, 16, 2, 2)], {"scales": [1, 1, 2, 2],
                                                 "coordinate_transformation_mode": "half_pixel"}),
]
test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize(("inputs", "attrs"), [pytest.param(i, a, id=n) for n, i, a in SHAPES])
def test_shape_formula_matches_onnxruntime(inputs: list[np.ndarray], attrs: dict[str, Any]) -> None:
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, inputs, attrs)


@pytest.mark.parametrize(("shapes", "attrs", "check"), [pytest.param(s, a, c, id=c) for s, a, c in REJECTED])
def test_invalid_node_reports_the_check(shapes: list[list[int] | None], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, attrs)


@pytest.mark.parametrize(("inputs", "attrs"), [pytest.param(i, a, id=n) for n, i, a in INVALID])
def test_kernel_rejects_invalid_input(inputs: list[np.ndarray | None], attrs: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        run(DOMAIN, OP, 1, inputs, **attrs)
