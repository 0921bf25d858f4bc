"""LogSoftmax: versions 1/11 coerce the input to 2-D at axis (onnxruntime is the oracle: onnx.reference reads them
as version 13, readings logsoftmax_r1/r2), version 13 works along axis; shapes against onnx; bad axes rejected."""

from __future__ import annotations

import numpy as np

from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    oracle_tests,
    rejection_tests,
    run,
    shape_case,
    shape_tests,
)

OP = "LogSoftmax"
X = Seeded(2014).f32(2, 3, 4) * 3

CASES = [
    OracleCase(OP, {}, [X], all_since(OP, 1, 12), oracle="ort", id="default"),
    OracleCase(OP, dict(axis=0), [X], all_since(OP, 1, 12), oracle="ort", id="axis0"),
    OracleCase(OP, dict(axis=-2), [X], all_since(OP, 11, 12), oracle="ort", id="axis_neg"),
    OracleCase(OP, {}, [X], all_since(OP, 13), id="default"),
    OracleCase(OP, dict(axis=0), [X], all_since(OP, 13), id="axis0"),
    OracleCase(OP, dict(axis=-2), [X.astype(np.float64)], all_since(OP, 13), id="axis_neg_double"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [shape_case(OP, opset, [[2, 3, 4]], attrs) for opset in (1, 11, 13)
          for attrs in ({}, {"axis": 2}, *([{"axis": -3}] if opset >= 11 else []))]
REJECTED = [(shape_case(OP, opset, [[2, 3]], {"axis": axis}), "logsoftmax_c1")
            for opset in (1, 11, 13) for axis in (2, -3)]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_far_apart_values_stay_finite() -> None:
    """The log of a softmax that underflows to 0 is still finite: -1000 against 0 gives -1000, not -inf."""
    y = run("ai.onnx", OP, 13, [np.array([[0.0, -1000.0]], np.float32)])[0]
    np.testing.assert_allclose(y, [[0.0, -1000.0]], atol=1e-4)
