"""com.microsoft CDist: the kernel against onnxruntime's CPU kernel (both metrics, short rows and the rows of 8 or more
features onnxruntime computes through Eigen, float and double), the shape formula, and rejected nodes."""

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
OP = "CDist"
data = Seeded(41)
A, B = data.f32(4, 11), data.f32(5, 11)


def case(inputs: list[np.ndarray], attrs: dict[str, Any], id: str, rtol: float = 1e-5) -> OracleCase:
    return OracleCase(OP, attrs, inputs, (1,), oracle="ort", rtol=rtol, id=id, domain=DOMAIN)


CASES = [
    *(case([A[:, :n], B[:, :n]], {"metric": m}, f"{m}_n{n}")
      for m in ("sqeuclidean", "euclidean") for n in (1, 3, 8, 11)),
    case([A, B], {}, "default_metric"),
    # onnxruntime expands |a - b|^2 as |a|^2 + |b|^2 - 2 a.b (a GEMM): where rows coincide its cancellation leaves
    # about sqrt(eps) * |a| (1e-3 in float) that the kernel's differences do not have
    case([A, A], {"metric": "euclidean"}, "same_rows", rtol=3e-3),
    *(case([A.astype(np.float64), B.astype(np.float64)], {"metric": m}, f"double_{m}", rtol=1e-12)
      for m in ("sqeuclidean", "euclidean")),
]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


def test_shape_formula_matches_onnxruntime() -> None:
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, [A[:2], B])


@pytest.mark.parametrize(("shapes", "check"), [
    pytest.param([[4, 3], [5, 2]], "binding", id="feature_counts"),
    pytest.param([[4, 0], [5, 0]], "cdist_c1", id="no_features"),
    pytest.param([[4, 3, 1], [5, 3]], "rank", id="3d"),
])
def test_invalid_node_reports_the_check(shapes: list[Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, {})


def test_coinciding_rows_are_at_distance_zero() -> None:
    (c,) = run(DOMAIN, OP, 1, [A, A], metric="euclidean")
    assert np.all(np.diag(c) == 0)


def test_other_metrics_are_not_allowed() -> None:
    assert "attr_allowed" in problem_checks(version(DOMAIN, OP, 1), [[4, 3], [5, 3]], {"metric": "cityblock"})
