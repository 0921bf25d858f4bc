"""MelWeightMatrix: the kernel against onnx.reference, onnxruntime and the filter bank built band by band from the
op's text (written out here); the shape formula against onnx's shape inference; invalid nodes."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from tests.helpers import OracleCase, oracle_tests, rejection_tests, run, shape_case, shape_tests, symbolic_shape

Oracle = str | Callable[[], list[np.ndarray]]
OP = "MelWeightMatrix"


def inputs(bands: int, length: int, rate: int, low: float, high: float, t1: type = np.int64,
           t2: type = np.float32) -> list[np.ndarray]:
    return [np.array(bands, t1), np.array(length, t1), np.array(rate, t1), np.array(low, t2), np.array(high, t2)]


def band_by_band(bands: int, length: int, rate: int, low: float, high: float,
                 dtype: type = np.float32) -> Callable[[], list[np.ndarray]]:
    """mel(f) = 2595 log10(1 + f / 700); bands + 2 points evenly spaced in mel from mel(low) by
    (mel(high) - mel(low)) / (bands + 2), each mapped back to hertz and to the bin floor((length + 1) f / rate);
    band i rises from point i to point i + 1 and falls to point i + 2."""

    def outputs() -> list[np.ndarray]:
        def mel(f: float) -> float:
            return 2595 * math.log10(1 + f / 700)

        step = (mel(high) - mel(low)) / (bands + 2)
        points = [math.floor((length + 1) * 700 * (10 ** ((mel(low) + i * step) / 2595) - 1) / rate)
                  for i in range(bands + 2)]
        out = np.zeros((length // 2 + 1, bands))
        for i in range(bands):
            left, center, right = points[i:i + 3]
            if center == left:
                out[center, i] = 1
            for j in range(left, center + 1):
                if center > left:
                    out[j, i] = (j - left) / (center - left)
            for j in range(center, right):
                out[j, i] = (right - j) / (right - center)
        return [out.astype(dtype)]

    return outputs


def case(args: tuple, attrs: dict | None = None, oracle: Oracle = "ref", t1: type = np.int64, t2: type = np.float32,
         id: str = "") -> OracleCase:
    return OracleCase(OP, attrs or {}, inputs(*args, t1=t1, t2=t2), (17,), oracle=oracle, id=id)


NODE_SUITE = (8, 16, 8192, 0.0, 4096.0)
CASES = [
    case(NODE_SUITE, id="node_suite"),
    case((3, 16, 100, 10.0, 50.0), t1=np.int32, id="int32"),
    case((5, 32, 16000, 100.0, 7000.0), t2=np.float64, id="double_edges"),
    case((5, 32, 16000, 100.0, 7000.0), t2=np.float16, id="half_edges"),
    case((4, 10, 1000, 0.0, 500.0), dict(output_datatype=11), id="double_out"),
    case((6, 40, 8000, 0.0, 4000.0), dict(output_datatype=6), id="int32_out"),
    case((3, 9, 20, 1.0, 9.0), id="odd_length"),
    case((2, 12, 100, 20.0, 20.0), id="equal_edges"),
    case((1, 1, 1000, 0.0, 400.0), id="one_bin"),
    case(NODE_SUITE, oracle="ort", id="ort_node_suite"),
    case((7, 64, 16000, 50.0, 7600.0), dict(output_datatype=7), oracle="ort", id="ort_int64"),
    case((4, 10, 1000, 100.0, 500.0), oracle="ort", id="ort_nyquist"),
    case(NODE_SUITE, oracle=band_by_band(*NODE_SUITE), id="bands"),
    case((5, 32, 16000, 100.0, 7000.0), dict(output_datatype=11),
         oracle=band_by_band(5, 32, 16000, 100.0, 7000.0, np.float64), id="bands_double"),
    case((3, 9, 20, 1.0, 9.0), oracle=band_by_band(3, 9, 20, 1.0, 9.0), id="bands_odd"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [shape_case(OP, 17, inputs(*args, t1=t1), attrs) for args, t1, attrs in (
    (NODE_SUITE, np.int32, {}),
    ((3, 17, 100, 10.0, 50.0), np.int64, {"output_datatype": 11}),
    ((1, 1, 10, 0.0, 5.0), np.int64, {}),
)]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


REJECTED = [
    (shape_case(OP, 17, inputs(0, 16, 100, 0.0, 50.0)), "melweightmatrix_c1"),
    (shape_case(OP, 17, inputs(3, 0, 100, 0.0, 50.0)), "melweightmatrix_c2"),
    (shape_case(OP, 17, inputs(3, 16, 0, 0.0, 0.0)), "melweightmatrix_c3"),
    (shape_case(OP, 17, inputs(3, 16, 100, 30.0, 20.0)), "melweightmatrix_c4"),
    (shape_case(OP, 17, inputs(3, 16, 100, -1.0, 20.0)), "melweightmatrix_c4"),
    (shape_case(OP, 17, inputs(3, 16, 100, 10.0, 50.5)), "melweightmatrix_c5"),
    (shape_case(OP, 17, [np.array([3], np.int64), *inputs(3, 16, 100, 0.0, 50.0)[1:]]), "rank"),
    (shape_case(OP, 17, inputs(3, 16, 100, 0.0, 50.0), {"output_datatype": 9}), "attr_allowed"),
]


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_unknown_values_leave_their_dims_unknown() -> None:
    assert symbolic_shape(OP, 17, [[]] * 5) == ["?bins", "?bands"]


def test_every_band_is_a_triangle_peaking_at_1() -> None:
    """Each column is 0 outside one run of bins, rises to a 1 and falls after it, linearly."""
    y = run("ai.onnx", OP, 17, inputs(10, 256, 16000, 20.0, 8000.0))[0]
    assert y.shape == (129, 10) and y.dtype == np.float32
    for band in y.T:
        support = np.flatnonzero(band)
        assert band.max() == 1 and np.all(np.diff(support) == 1)
        peak = int(np.argmax(band))
        assert np.all(np.diff(band[support[0]:peak + 1]) > 0) and np.all(np.diff(band[peak:support[-1] + 1]) < 0)
