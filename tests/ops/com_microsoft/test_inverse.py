"""com.microsoft Inverse: the kernel against onnxruntime's CPU kernel (batches, a single matrix, 1 x 1, every
float type), the shape formula, and rejected nodes."""

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
    run,
    version,
)

DOMAIN = "com.microsoft"
OP = "Inverse"
data = Seeded(37)


def well_conditioned(*shape: int) -> np.ndarray:
    """Random matrices plus a dominant diagonal: invertible, and far from singular."""
    return (data.f32(*shape) + 4 * np.eye(shape[-1], dtype=np.float32)).astype(np.float32)


def case(x: np.ndarray, id: str, rtol: float = 1e-4) -> OracleCase:
    return OracleCase(OP, {}, [x], (1,), oracle="ort", rtol=rtol, id=id, domain=DOMAIN)


CASES = [
    case(well_conditioned(2, 3, 4, 4), "batch_2x3"),
    case(well_conditioned(5, 5), "single"),
    case(well_conditioned(1, 1), "1x1"),
    case(data.f32(3, 3), "unconditioned", rtol=1e-3),
    case(well_conditioned(2, 6, 6).astype(np.float64), "double", rtol=1e-10),
    case(well_conditioned(2, 3, 3).astype(np.float16), "fp16", rtol=5e-3),
]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


def test_kernel_inverts() -> None:
    x = well_conditioned(4, 3, 3).astype(np.float64)
    (y,) = run(DOMAIN, OP, 1, [x])
    np.testing.assert_allclose(x @ y, np.broadcast_to(np.eye(3), x.shape), atol=1e-12)


@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 2, 2)])
def test_shape_formula_matches_onnxruntime(shape: tuple[int, ...]) -> None:
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, [well_conditioned(*shape)])


@pytest.mark.parametrize(("shapes", "check"), [
    pytest.param([[3, 4]], "inverse_c1", id="not_square"),
    pytest.param([[2, 3, 2]], "inverse_c1", id="batch_not_square"),
    pytest.param([[3]], "rank", id="vector"),
])
def test_invalid_node_reports_the_check(shapes: list[Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, {})
