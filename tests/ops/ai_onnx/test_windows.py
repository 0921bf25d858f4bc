"""HannWindow, HammingWindow, BlackmanWindow, one table: each kernel against onnx.reference, onnxruntime and the
window's formula (the cosine sum of onnx's function body, written out here), periodic and symmetric, in floating and
integer output types; the shape formula against onnx's shape inference; invalid nodes."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest

from tests.helpers import OracleCase, oracle_tests, rejection_tests, run, shape_case, shape_tests, symbolic_shape

Oracle = str | Callable[[], list[np.ndarray]]
OPS = ("BlackmanWindow", "HammingWindow", "HannWindow")
# w[n] = a0 - a1 cos(x) + a2 cos(2x) - ..., x = 2 pi n / N
COEFFICIENTS = {"HannWindow": (0.5, 0.5), "HammingWindow": (25 / 46, 21 / 46), "BlackmanWindow": (0.42, 0.5, 0.08)}


def by_formula(op: str, size: int, periodic: int, dtype: type) -> Callable[[], list[np.ndarray]]:
    def outputs() -> list[np.ndarray]:
        n_total = size if periodic else size - 1
        values = [sum((-1) ** k * a * math.cos(2 * math.pi * k * n / n_total) for k, a in enumerate(COEFFICIENTS[op]))
                  for n in range(size)]
        return [np.array(values, dtype=dtype)]

    return outputs


def case(op: str, size: int, attrs: dict, oracle: Oracle = "ref", size_type: type = np.int64, rtol: float = 1e-6,
         id: str = "") -> OracleCase:
    return OracleCase(op, attrs, [np.array(size, size_type)], (17,), oracle=oracle, rtol=rtol, id=id)


def cases(op: str) -> list[OracleCase]:
    return [
        case(op, 10, {}, id="periodic"),
        case(op, 10, dict(periodic=0), size_type=np.int32, id="symmetric"),
        case(op, 7, dict(periodic=0, output_datatype=11), id="symmetric_double"),
        case(op, 1, {}, id="size1"),
        case(op, 1, dict(periodic=0), oracle="ort", id="symmetric_size1_nan"),  # 0 / 0 in onnxruntime too
        case(op, 8, dict(output_datatype=6), id="int32_peak"),
        case(op, 9, dict(periodic=0, output_datatype=2), id="uint8_symmetric"),
        case(op, 12, dict(output_datatype=10), oracle="ort", rtol=1e-3, id="ort_half"),
        case(op, 6, dict(periodic=0, output_datatype=7), oracle="ort", id="ort_int64"),
        case(op, 11, dict(periodic=0), oracle=by_formula(op, 11, 0, np.float32), id="formula_symmetric"),
        case(op, 16, dict(output_datatype=11), oracle=by_formula(op, 16, 1, np.float64), rtol=1e-12,
             id="formula_double"),
    ]


CASES = [c for op in OPS for c in cases(op)]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OPS, CASES)


SHAPES = [shape_case(op, 17, [np.array(n, t)], attrs) for op in OPS for n, t, attrs in
          ((7, np.int32, {}), (1, np.int64, {"periodic": 0}), (12, np.int64, {"output_datatype": 11}))]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


REJECTED = [(shape_case(op, 17, inputs, attrs), check.format(op.lower())) for op in OPS for inputs, attrs, check in (
    ([np.array(0, np.int64)], {}, "{}_c1"),
    ([np.array(-3, np.int32)], {}, "{}_c1"),
    ([np.array([4], np.int64)], {}, "rank"),
    ([np.array(4, np.int64)], {"output_datatype": 8}, "attr_allowed"),
    ([np.array(4, np.int64)], {"periodic": 2}, "attr_allowed"),
)]


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


@pytest.mark.parametrize("op", OPS)
def test_an_unknown_size_is_an_unknown_length(op: str) -> None:
    assert symbolic_shape(op, 17, [[]]) == ["?size"]


@pytest.mark.parametrize("op", OPS)
def test_integer_output_keeps_the_exact_peak_and_zeros(op: str) -> None:
    """The peak of a window of even size (periodic) or odd size (symmetric) is exactly 1, and an integer type
    keeps it; every other value in [0, 1) truncates to 0."""
    for size, periodic in ((8, 1), (9, 0)):
        y = run("ai.onnx", op, 17, [np.array(size, np.int64)], periodic=periodic, output_datatype=6)[0]
        assert y.dtype == np.int32 and y.tolist() == [1 if n == size // 2 else 0 for n in range(size)]


@pytest.mark.parametrize("op", OPS)
def test_a_symmetric_window_of_size_1_has_no_integer_value(op: str) -> None:
    with pytest.raises(ValueError, match="not finite"):
        run("ai.onnx", op, 17, [np.array(1, np.int64)], periodic=0, output_datatype=7)
