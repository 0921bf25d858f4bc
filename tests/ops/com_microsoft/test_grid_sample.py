"""com.microsoft GridSample: the kernel against onnxruntime's CPU kernel (every mode, padding mode and corner
alignment, grid positions past the border, float16), the shape formula, and rejected nodes."""

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
    version,
)

DOMAIN = "com.microsoft"
OP = "GridSample"
data = Seeded(31)
X = data.f32(2, 3, 5, 6)
GRID = (data.rng.uniform(-1.3, 1.3, (2, 4, 7, 2))).astype(np.float32)  # some positions outside [-1, 1]


def case(inputs: list[Any], attrs: dict[str, Any], id: str, rtol: float = 1e-5) -> OracleCase:
    return OracleCase(OP, attrs, inputs, (1,), oracle="ort", rtol=rtol, id=id, domain=DOMAIN)


CASES = [
    *(case([X, GRID], {"mode": m, "padding_mode": p, "align_corners": a}, f"{m}_{p}_ac{a}")
      for m in ("bilinear", "nearest", "bicubic") for p in ("zeros", "border", "reflection") for a in (0, 1)),
    case([X, GRID], {}, "defaults"),
    case([X[:1, :1, :1, :1], GRID[:1]], {"mode": "bicubic", "padding_mode": "reflection"}, "one_pixel"),
    case([X.astype(np.float16), GRID.astype(np.float16)], {"mode": "bicubic", "padding_mode": "border"}, "fp16",
         rtol=5e-3),
]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize("grid", [GRID, GRID[:, :1, :3]], ids=["4x7", "1x3"])
def test_shape_formula_matches_onnxruntime(grid: np.ndarray) -> None:
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, [X, grid])


@pytest.mark.parametrize(("shapes", "check"), [
    pytest.param([[2, 3, 5, 6], [1, 4, 7, 2]], "gridsample_c1", id="grid_batch"),
    pytest.param([[2, 3, 5, 6], [2, 4, 7, 3]], "gridsample_c2", id="grid_pair"),
    pytest.param([[2, 3, 5], [2, 4, 2]], "rank", id="3d_input"),
])
def test_invalid_node_reports_the_check(shapes: list[Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, {})
