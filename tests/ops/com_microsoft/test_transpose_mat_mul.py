"""com.microsoft TransposeMatMul: the kernel against onnxruntime's CPU kernel over transA, transB, alpha, vectors,
batches and float16; the shape formula against onnxruntime; rejected nodes."""

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
OP = "TransposeMatMul"
f32 = Seeded(14).f32


def _case(a: np.ndarray, b: np.ndarray, attrs: dict[str, Any], ident: str, rtol: float = 1e-5) -> OracleCase:
    return OracleCase(OP, attrs, [a, b], (1,), oracle="ort", rtol=rtol, id=ident, domain=DOMAIN)


CASES = [
    _case(f32(2, 3), f32(3, 4), {}, "plain"),
    _case(f32(3, 2), f32(4, 3), {"transA": 1, "transB": 1, "alpha": 0.5}, "trans-alpha"),
    _case(f32(2, 5, 3), f32(1, 5, 4), {"transA": 1, "alpha": -2.0}, "batch-transA"),
    _case(f32(3), f32(2, 4, 3), {"transB": 1}, "vector-a-transB"),
    _case(f32(2, 5, 3).astype(np.float16), f32(4, 5).astype(np.float16), {"transA": 1, "transB": 1}, "fp16", 1e-2),
]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in CASES])
def test_shape_formula_matches_onnxruntime(case: OracleCase) -> None:
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, case.inputs, case.attrs)


@pytest.mark.parametrize(("shapes", "attrs", "check"), [
    pytest.param([[], [3, 4]], {}, "transposematmul_c1", id="scalar"),
    pytest.param([[2, 3], [3, 4]], {"transA": 1}, "transposematmul_c2", id="inner-dims"),
    pytest.param([[2, 2, 3], [3, 3, 4]], {}, "transposematmul_c3", id="batch"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int]], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, attrs)
