"""com.microsoft GatedAdd: plain mode against onnxruntime's CPU kernel (float, float16: the product rounded to T
before the add); projected mode, which only onnxruntime's CUDA provider implements (bfloat16), against hand-derived
cases; the shape formula against onnxruntime; rejected nodes."""

from __future__ import annotations

from typing import Any

import ml_dtypes
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
OP = "GatedAdd"
f32 = Seeded(32).f32
BF16 = ml_dtypes.bfloat16

X, Y, G = f32(2, 3, 8) * 3, f32(2, 3, 8) * 3, f32(2, 3, 1) * 2


def _case(inputs: list[Any], ident: str, rtol: float) -> OracleCase:
    return OracleCase(OP, {}, inputs, (1,), oracle="ort", rtol=rtol, id=ident, domain=DOMAIN)


CASES = [
    _case([X, Y, G], "float", 1e-6),
    _case([X[0, 0], Y[0, 0], G[0, 0]], "rank1", 1e-6),
    _case([x.astype(np.float16) for x in (X, Y, G)], "fp16", 0),
]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


def test_fp16_rounds_the_product_before_the_add() -> None:
    """The float16 case above tells the two-step rounding from one rounding of X + Y * gate."""
    x, y, g = (v.astype(np.float16) for v in (X, Y, G))
    (got,) = run(DOMAIN, OP, 1, [x, y, g])
    once = (x.astype(np.float32) + y.astype(np.float32) * g.astype(np.float32)).astype(np.float16)
    assert np.any(got != once)


def test_projected_mode_by_hand() -> None:
    """Row 0: gate . gate_weight = 1 * 2 + (-1) * 2 = 0, sigmoid 0.5, output X + Y / 2. Row 1: the projection is 24,
    sigmoid(24) rounds to 1 in bfloat16, output X + Y. All values are exact in bfloat16."""
    x = np.array([[1.0, -2.0], [0.5, 3.0]], dtype=BF16)
    y = np.array([[4.0, 6.0], [-8.0, 0.25]], dtype=BF16)
    gate = np.array([[1.0, -1.0], [4.0, 8.0]], dtype=BF16)
    weight = np.array([[2.0], [2.0]], dtype=BF16)
    (got,) = run(DOMAIN, OP, 1, [x, y, gate, weight])
    assert got.dtype == np.dtype(BF16)
    np.testing.assert_array_equal(got.astype(np.float32), np.array([[3.0, 1.0], [-7.5, 3.25]], np.float32))


def test_projected_mode_rounds_the_sigmoid_to_bfloat16() -> None:
    """sigmoid(1) = 0.7310586 rounds to 0.73046875 in bfloat16; Y = 9 shows it: 9 * 0.73046875 = 6.57421875 rounds to
    6.5625, where 9 * 0.7310586 = 6.5795 would round to 6.59375."""
    x = np.zeros((1, 1), dtype=BF16)
    y = np.full((1, 1), 9.0, dtype=BF16)
    gate, weight = np.ones((1, 1), dtype=BF16), np.ones((1, 1), dtype=BF16)
    (got,) = run(DOMAIN, OP, 1, [x, y, gate, weight])
    assert float(got[0, 0]) == 6.5625


@pytest.mark.parametrize("shape", [(2, 3), (5,), (1, 2, 3, 2)])
def test_shape_formula_matches_onnxruntime(shape: tuple[int, ...]) -> None:
    x = f32(*shape)
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, [x, x, f32(*shape[:-1], 1)])


@pytest.mark.parametrize(("shapes", "check"), [
    pytest.param([[2, 3], [2, 4], [2, 1]], "gatedadd_c1", id="y-shape"),
    pytest.param([[2, 3], [2, 3], [1, 1]], "gatedadd_c2", id="gate-rows"),
    pytest.param([[2, 3], [2, 3], [2, 3]], "gatedadd_c3", id="plain-gate-width"),
    pytest.param([[2, 3], [2, 3], [2, 4], [3, 1]], "gatedadd_c4", id="weight-rows"),
    pytest.param([[2, 3], [2, 3], [2, 4], [4, 2]], "gatedadd_c4", id="weight-cols"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int]], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, {})
