"""com.microsoft MatMulInteger16: the kernel (32-bit wrapping included) and the shape formula against
onnxruntime (int16 x int16, its only CPU kernel), the uint16 cases by hand, rejected nodes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    assert_matches_oracle,
    assert_registry_ranges_exercised,
    assert_shapes_match_onnxruntime,
    problem_checks,
    run,
    version,
)

DOMAIN = "com.microsoft"
OP = "MatMulInteger16"
RNG = np.random.default_rng(13)


def i16(*shape: int) -> np.ndarray:
    return RNG.integers(-32768, 32768, shape).astype(np.int16)


def case(inputs: list[Any], id: str) -> OracleCase:
    return OracleCase(OP, {}, inputs, (1,), oracle="ort", id=id, domain=DOMAIN)


CASES = [
    case([i16(3, 4), i16(4, 5)], "matrix"),
    case([i16(2, 3, 64), i16(64, 2)], "wrapping_accumulator"),
    case([i16(2, 1, 3, 4), i16(5, 4, 2)], "batch_broadcast"),
    case([i16(4), i16(4, 2)], "one_d_a"),
    case([i16(3, 4), i16(4)], "one_d_b"),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_kernel_matches_onnxruntime(case: OracleCase) -> None:
    assert_matches_oracle(case, 1)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


def test_unsigned_and_mixed_types_by_hand() -> None:
    """onnxruntime has no uint16 kernel: Y is uint32 for uint16 x uint16 (wrapping mod 2**32), int32 otherwise."""
    a = np.array([[65535, 65535]], np.uint16)
    (y,) = run(DOMAIN, OP, 1, [a, np.array([[65535], [65535]], np.uint16)])
    assert y.dtype == np.uint32 and y.tolist() == [[(2 * 65535 * 65535) % 2**32]]
    (y,) = run(DOMAIN, OP, 1, [a, np.array([[-1], [2]], np.int16)])
    assert y.dtype == np.int32 and y.tolist() == [[65535]]


@pytest.mark.parametrize("inputs", [c.inputs for c in CASES], ids=[c.id for c in CASES])
def test_shape_formula_matches_onnxruntime(inputs: list[Any]) -> None:
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, inputs)


@pytest.mark.parametrize(("shapes", "check"), [
    pytest.param([[2, 8], [7, 5]], "matmulinteger16_c2", id="k_mismatch"),
    pytest.param([[2, 3, 8], [4, 8, 5]], "matmulinteger16_c3", id="batch"),
    pytest.param([[], [8, 5]], "matmulinteger16_c1", id="scalar"),
])
def test_invalid_node_reports_the_check(shapes: list[Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, {})
