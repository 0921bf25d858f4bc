"""Binarizer: the kernel against onnxruntime (float) and onnx.reference (every type), the shape formula
against onnx, the threshold itself and NaN mapping to 0."""

from __future__ import annotations

import numpy as np

from tests.helpers import OracleCase, Seeded, oracle_tests, run, shape_case, shape_tests

DOMAIN = "ai.onnx.ml"
OP = "Binarizer"
data = Seeded(42)
QUARTERS = np.arange(-8, 9, dtype=np.float32).reshape(1, 17) / 4  # the threshold itself included


def case(x: np.ndarray, attrs: dict[str, float], id: str, oracle: str = "ref") -> OracleCase:
    return OracleCase(OP, attrs, [x], (1,), oracle=oracle, id=id, domain=DOMAIN)


CASES = [
    case(QUARTERS, {"threshold": 0.5}, "float_ort", oracle="ort"),
    case(data.f32(2, 3, 4), {}, "default_ort", oracle="ort"),
    case(np.array(0.25, np.float32), {"threshold": 0.25}, "scalar_ort", oracle="ort"),
    case(QUARTERS.astype(np.float64), {"threshold": -0.75}, "double"),
    case(data.ints(-5, 5, (3, 4), np.int64), {"threshold": 1.5}, "int64"),
    case(data.ints(-5, 5, (3, 4), np.int32), {"threshold": -1.0}, "int32"),
]

test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)

SHAPES = [shape_case(OP, 1, [shape], domain=DOMAIN) for shape in ([], [3], [2, 3, 4])]

test_shape_formula_matches_onnx = shape_tests(SHAPES)


def test_nan_and_the_threshold_map_to_zero() -> None:
    """onnxruntime refuses NaN input; the text maps what is not greater than the threshold to 0."""
    (y,) = run(DOMAIN, OP, 1, [np.array([np.nan, 1.0, 1.5], np.float32)], threshold=1.0)
    assert y.tolist() == [0.0, 0.0, 1.0] and y.dtype == np.float32
