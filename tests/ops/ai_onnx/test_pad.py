"""Pad: the kernel against onnx.reference/onnxruntime, the shape formula against onnx, rejected nodes."""

from __future__ import annotations

import numpy as np

from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    i64,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
)

OP = "Pad"
X = Seeded(1234).f32(2, 3, 4, 5)

CASES = [c for mode in ("constant", "reflect", "edge") for c in (
    OracleCase(OP, dict(pads=[0, 1, 2, 0, 0, 2, 1, 0], mode=mode, value=1.5), [X], all_since(OP, 2, 10),
               id=f"attr_{mode}"),
    OracleCase(OP, dict(mode=mode), [X, i64(0, 1, 2, 1, 0, 2, 1, 3)], all_since(OP, 11), id=f"input_{mode}"),
)]
CASES += [
    OracleCase(OP, dict(paddings=[0, 0, 1, 1, 0, 0, 2, 0]), [X], all_since(OP, 1, 1),
               oracle=lambda: [np.pad(X, [(0, 0), (0, 0), (1, 2), (1, 0)])], id="v1"),
    OracleCase(OP, dict(mode="wrap"), [X, i64(0, 1, 2, 1, 0, 2, 1, 3)], all_since(OP, 19), id="wrap"),
    OracleCase(OP, {}, [X, i64(0, -1, 2, 1, 0, 1, -2, 0), np.array(2.0, np.float32)], all_since(OP, 11),
               oracle="ort@18", id="crop_value"),
    OracleCase(OP, dict(mode="reflect"), [X, i64(1, 2, 0, 3), None, i64(1, -1)], all_since(OP, 18), id="axes"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


# opset 1 names the attribute `paddings` (and onnx infers no shape there), opset 2 `pads`
SHAPES = [shape_case(OP, opset, [shape], {key: pads, **attrs}, not_inferred_by_onnx={0: want} if opset == 1 else {})
          for opset, key in ((1, "paddings"), (2, "pads")) for shape, pads, attrs, want in (
              ([2, 3], [1, 0, 2, 3], {}, [5, 6]),
              ([2, 3, 4], [0, 0, 1, 0, 0, 1], {"mode": "reflect"}, [2, 3, 6]))]
SHAPES.append(shape_case(OP, 2, [[2, 3]], {"pads": [0, -1, 0, -1]}))
INPUT_OPSETS = (11, 13, 18, 19, 21, 25)
SHAPES += [shape_case(OP, opset, inputs) for opset in INPUT_OPSETS for inputs in (
    [[2, 3], i64(1, 0, 2, 3)],
    [[2, 3], i64(0, -1, 1, 1), np.array(5.0, np.float32)],
    # `axes` from 18
    *([[[2, 3, 4], i64(1, 2, 3, 4), None, i64(2, 0)], [[2, 3, 4], i64(1, 3), None, i64(-2)]] if opset >= 18 else []),
)]

REJECTED = [(shape_case(OP, 2, [[2, 3]], {"pads": [0, -2, 0, -2]}), "pad_c1")]
REJECTED += [(shape_case(OP, opset, [[2, 3], i64(1, 0)]), "pad_c2") for opset in INPUT_OPSETS]
REJECTED += [(shape_case(OP, opset, inputs), check) for opset in INPUT_OPSETS if opset >= 18 for inputs, check in (
    ([[2, 3], i64(1, 1), None, i64(2)], "pad_c3"),
    ([[2, 3], i64(1, 1, 1, 1), None, i64(1, -1)], "pad_c4"),
)]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
