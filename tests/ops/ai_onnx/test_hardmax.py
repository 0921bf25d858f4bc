"""Hardmax: versions 1/11 coerce the input to 2-D at axis (onnxruntime is the oracle: onnx.reference reads them as
version 13, readings hardmax_r1/r2), version 13 works along axis; shapes against onnx; bad axes rejected."""

from __future__ import annotations

import numpy as np

from opset.formula import Sym
from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
    symbolic_shape,
)

OP = "Hardmax"
data = Seeded(2013)
X = data.f32(2, 3, 4)
TIES = np.round(data.f32(3, 4, 2)).astype(np.float32)  # many equal maxima: the first one wins

CASES = [
    OracleCase(OP, {}, [X], all_since(OP, 1, 12), oracle="ort", id="default"),
    OracleCase(OP, dict(axis=0), [X], all_since(OP, 1, 12), oracle="ort", id="axis0"),
    OracleCase(OP, dict(axis=-1), [TIES], all_since(OP, 11, 12), oracle="ort", id="ties_last"),
    OracleCase(OP, dict(axis=1), [TIES], all_since(OP, 1, 12), oracle="ort", id="ties_coerced"),
    OracleCase(OP, {}, [X], all_since(OP, 13), id="default"),
    OracleCase(OP, dict(axis=0), [TIES], all_since(OP, 13), id="ties_axis0"),
    OracleCase(OP, dict(axis=-2), [TIES], all_since(OP, 13), id="ties_axis_neg"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [shape_case(OP, opset, [[2, 3, 4]], attrs) for opset in (1, 11, 13)
          for attrs in ({}, {"axis": 2}, *([{"axis": -3}] if opset >= 11 else []))]
REJECTED = [(shape_case(OP, opset, [[2, 3]], {"axis": axis}), "hardmax_c1")
            for opset in (1, 11, 13) for axis in (2, -3)]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_symbolic_batch_dim() -> None:
    assert symbolic_shape(OP, 13, [[Sym("N"), 5]]) == ["N", "5"]
