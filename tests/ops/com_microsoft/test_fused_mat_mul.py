"""com.microsoft FusedMatMul: the kernel against onnxruntime's CPU kernel over transA/transB/transBatchA/transBatchB,
alpha, vectors, broadcast batch dims and float16/double; the shape formula against onnxruntime; rejected nodes."""

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
OP = "FusedMatMul"
f32 = Seeded(13).f32

FLAGS = ("transA", "transB", "transBatchA", "transBatchB")


def _case(shapes: tuple[tuple[int, ...], tuple[int, ...]], flags: tuple[int, int, int, int], alpha: float,
          ident: str, dtype: Any = np.float32) -> OracleCase:
    attrs: dict[str, Any] = dict(zip(FLAGS, flags, strict=True))
    if alpha != 1:
        attrs["alpha"] = alpha
    inputs = [f32(*shapes[0]).astype(dtype), f32(*shapes[1]).astype(dtype)]
    rtol = 1e-2 if dtype == np.float16 else 1e-5
    return OracleCase(OP, attrs, inputs, (1,), oracle="ort", rtol=rtol, id=ident, domain=DOMAIN)


CASES = [
    _case(((2, 3), (3, 4)), (0, 0, 0, 0), 1.0, "plain"),
    _case(((3, 2), (4, 3)), (1, 1, 0, 0), 0.5, "transA-transB-alpha"),
    _case(((3, 2, 5), (2, 5, 4)), (0, 0, 1, 0), 1.0, "transBatchA"),
    _case(((3, 2, 5), (5, 2, 4)), (0, 0, 1, 1), -1.5, "transBatchA-transBatchB"),
    _case(((5, 2, 3), (2, 4, 5)), (1, 1, 1, 0), 2.0, "transA-transBatchA-transB"),
    _case(((2, 3, 4, 5), (6, 1, 3, 5)), (0, 1, 0, 1), 1.0, "transB-transBatchB-broadcast"),
    _case(((4, 2, 3, 5), (2, 3, 6, 5)), (0, 1, 1, 0), 1.0, "rank4-transBatchA"),
    _case(((4, 1, 3, 5), (2, 3, 4, 6)), (1, 0, 1, 0), 0.25, "rank4-batch-broadcast"),
    _case(((3,), (3, 4)), (1, 0, 0, 0), 1.0, "vector-a"),
    _case(((2, 3, 4), (4,)), (0, 1, 0, 0), 1.0, "vector-b"),
    _case(((1, 2, 3), (5, 3, 4)), (0, 0, 0, 0), 1.0, "batch-broadcast"),
    _case(((3, 2, 5), (2, 4, 5)), (0, 1, 1, 0), 0.5, "fp16", np.float16),
    _case(((5, 2, 3), (2, 4, 5)), (1, 1, 1, 0), 2.0, "double", np.float64),
]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in CASES])
def test_shape_formula_matches_onnxruntime(case: OracleCase) -> None:
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, case.inputs, case.attrs)


@pytest.mark.parametrize(("shapes", "attrs", "check"), [
    pytest.param([[], [3, 4]], {}, "fusedmatmul_c1", id="scalar"),
    pytest.param([[2, 3], [4, 3]], {}, "fusedmatmul_c2", id="inner-dims"),
    pytest.param([[3, 2, 5], [3, 5, 4]], {"transBatchA": 1}, "fusedmatmul_c3", id="batch-after-transBatch"),
    pytest.param([[2, 3], [3, 4]], {"transBatchA": 1}, "fusedmatmul_c4", id="transBatch-rank2"),
    pytest.param([[3, 2, 5], [5, 4]], {"transBatchA": 1}, "fusedmatmul_c4", id="transBatch-ranks-differ"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int]], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, attrs)
