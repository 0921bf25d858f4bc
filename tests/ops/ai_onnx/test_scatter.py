"""Scatter (deprecated): the kernel against onnxruntime at opset 9 and against onnx.reference's ScatterElements
at opset 11 (onnxruntime refuses Scatter-11, the reference has no Scatter); shapes against onnx; rejected nodes."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    Seeded,
    i64,
    kernel,
    oracle_outputs,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
)

OP = "Scatter"
SEEDED = Seeded(1234)
DATA = SEEDED.f32(3, 4)
UPDATES = SEEDED.f32(2, 4)
POSITIVE = np.array([[1, 0, 2, 2], [0, 2, 1, 0]], np.int64)
NEGATIVE = np.array([[-1, 0, 2], [1, -2, -3]], np.int32)


def as_scatter_elements(attrs: dict[str, int], inputs: list[np.ndarray]) -> OracleCase:
    return OracleCase("ScatterElements", attrs, list(inputs), (11,))


CASES = [
    OracleCase(OP, {}, [DATA, POSITIVE, UPDATES], (9,), oracle="ort", id="axis0"),
    OracleCase(OP, dict(axis=-1), [DATA, POSITIVE[:, :3].T.copy(), SEEDED.f32(3, 2)], (9,), oracle="ort",
               id="negative_axis"),
    OracleCase(OP, dict(axis=1), [DATA, NEGATIVE, UPDATES[:, :3]], (11,),
               oracle=lambda: oracle_outputs(as_scatter_elements(dict(axis=1), [DATA, NEGATIVE, UPDATES[:, :3]]), 11),
               id="negative_indices"),
    OracleCase(OP, {}, [DATA, POSITIVE, UPDATES], (11,),
               oracle=lambda: oracle_outputs(as_scatter_elements({}, [DATA, POSITIVE, UPDATES]), 11), id="axis0_v11"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [shape_case(OP, opset, [[3, 4], np.zeros((2, 4), np.int64), [2, 4]], attrs)
          for opset in (9, 11) for attrs in ({}, {"axis": 1})]

REJECTED = [(shape_case(OP, opset, [data, idx, upd], attrs), check) for opset in (9, 11)
            for data, idx, upd, attrs, check in (
    ([3, 4], np.zeros((2,), np.int64), [2], {}, "scatter_c2"),
    ([3, 4], np.zeros((2, 4), np.int64), [2, 3], {}, "scatter_c3"),
    ([3, 4], np.zeros((2, 4), np.int64), [2, 4], {"axis": -3}, "scatter_c4"),
    ([3, 4], np.full((2, 4), 3, np.int64), [2, 4], {}, "scatter_c6"),
)]
REJECTED.append((shape_case(OP, 9, [[3, 4], np.full((2, 4), -1, np.int64), [2, 4]]), "scatter_c6"))


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_opset9_has_no_negative_indices() -> None:
    with pytest.raises(ValueError, match="outside"):
        kernel("ai.onnx", OP, 9)(DATA, i64(-1).reshape(1, 1), SEEDED.f32(1, 1))
