"""Tolerance, NaN and infinity handling, ULP distance."""

from __future__ import annotations

import numpy as np
import pytest

from conformance.compare import compare_arrays, ulp_distance
from opset.model import Tolerance

TOL = Tolerance(rtol=1e-5, atol=1e-6)


def test_equal_arrays_pass_with_zero_error() -> None:
    x = np.array([1.0, -2.0, np.nan, np.inf], dtype=np.float32)
    result = compare_arrays(x, x.copy(), TOL)
    assert result.ok and result.max_abs == 0.0 and result.max_ulp == 0.0


def test_nan_positions_must_match() -> None:
    result = compare_arrays(np.array([np.nan, 1.0]), np.array([1.0, np.nan]), TOL)
    assert not result.ok and "NaN positions" in result.problem


def test_infinities_must_match_exactly_including_sign() -> None:
    result = compare_arrays(np.array([np.inf]), np.array([-np.inf]), TOL)
    assert not result.ok and "infinities" in result.problem


def test_values_outside_tolerance_fail_and_say_where() -> None:
    result = compare_arrays(np.array([1.0, 2.1], np.float32), np.array([1.0, 2.0], np.float32), TOL)
    assert not result.ok and "flat index 1" in result.problem and result.max_abs > 0.09


def test_shape_and_dtype_differences_fail() -> None:
    assert not compare_arrays(np.zeros(2), np.zeros(3), TOL).ok
    assert not compare_arrays(np.zeros(2, np.float32), np.zeros(2, np.float64), TOL).ok


def test_integers_are_exact() -> None:
    assert not compare_arrays(np.array([1, 2]), np.array([1, 3]), TOL).ok


def test_ulp_distance_across_zero_and_neighbours() -> None:
    one = np.array([1.0], np.float32)
    assert ulp_distance(np.nextafter(one, np.float32(2)), one)[0] == 1
    tiny = np.array([np.float32(1e-45)], np.float32)
    assert ulp_distance(tiny, -tiny)[0] == 2


@pytest.mark.parametrize(("actual", "expected", "shown"), [
    (np.array([5.0], np.float32), np.array([6.0], np.float32), "first at flat index 0: 5.0 vs 6.0;"),
    (np.array([1, -3], np.int8), np.array([1, 4], np.int8), "first at flat index 1: -3 vs 4"),
    (np.array([True]), np.array([False]), "first at flat index 0: True vs False"),
])
def test_a_failure_shows_values_as_python_writes_them(actual: np.ndarray, expected: np.ndarray, shown: str) -> None:
    result = compare_arrays(actual, expected, TOL)
    assert not result.ok and shown in result.problem and "np." not in result.problem
