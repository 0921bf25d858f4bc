"""NonMaxSuppression: the kernel against onnx.reference and onnxruntime, hand-checked selections, onnx's shape
inference (an unnamed first dim: the count depends on the data, an unknown dim in the formula), rejected nodes."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    ShapeCase,
    i64,
    inferred,
    oracle_tests,
    registry,
    rejection_tests,
    run,
    shape_case,
    shape_tests,
)

OP = "NonMaxSuppression"
rng = np.random.default_rng(4326)
# two batches, three classes, six boxes on a coarse grid (many overlaps), scores with ties
BOXES = (rng.integers(0, 5, (2, 6, 4)) * 0.5).astype(np.float32)
SCORES = (rng.integers(0, 5, (2, 3, 6)) / 4).astype(np.float32)
CENTRES = np.concatenate([rng.integers(1, 4, (2, 6, 2)), rng.integers(1, 3, (2, 6, 2))], axis=2).astype(np.float32)


def f32(*values: float) -> np.ndarray:
    return np.array(values, np.float32)


CASES = [
    OracleCase(OP, {}, [BOXES, SCORES, i64(3), f32(0.5), f32(0.25)], (10, 11), id="corners"),
    OracleCase(OP, {}, [BOXES, SCORES, i64(6), f32(1 / 3)], (10, 11), id="no_score_threshold"),
    OracleCase(OP, {}, [BOXES, SCORES, i64(2), f32(0.0), f32(0.5)], (10, 11), id="iou_zero"),
    OracleCase(OP, {"center_point_box": 1}, [CENTRES, SCORES, i64(4), f32(0.25), f32(0.0)], (10, 11),
               id="centres"),
    # onnx.reference cannot run these (it indexes each scalar input and needs all of them): onnxruntime
    OracleCase(OP, {}, [BOXES, SCORES, np.array(3, np.int64)], (10, 11), oracle="ort", id="scalar_limit_only"),
    OracleCase(OP, {}, [BOXES, SCORES], (10, 11), oracle="ort", id="no_limit_no_output"),
    OracleCase(OP, {}, [BOXES, SCORES, i64(-2), f32(0.5)], (10, 11), oracle="ort", id="negative_limit"),
    OracleCase(OP, {"center_point_box": 1}, [CENTRES, SCORES, i64(5), None, f32(0.5)], (10, 11), oracle="ort",
               id="no_iou_threshold"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def test_greedy_selection_by_hand() -> None:
    """Box 1 scores highest; box 0 overlaps it with IoU 1/2 (suppressed at 0.4, kept at 0.5: only a greater IoU
    suppresses); box 2 is apart; box 3 ties box 2's score and loses the tie by its index; box 4 scores exactly
    the score threshold and is dropped (only a greater score counts)."""
    boxes = np.array([[[0, 0, 2, 2], [0, 0, 2, 1], [5, 5, 6, 6], [8, 8, 9, 9], [0, 4, 1, 5]]], np.float32)
    scores = np.array([[[0.5, 0.9, 0.7, 0.7, 0.25]]], np.float32)
    (y,) = run("ai.onnx", OP, 11, [boxes, scores, i64(10), f32(0.4), f32(0.25)])
    assert y.tolist() == [[0, 0, 1], [0, 0, 2], [0, 0, 3]]
    (y,) = run("ai.onnx", OP, 11, [boxes, scores, i64(10), f32(0.5), f32(0.25)])
    assert y.tolist() == [[0, 0, 1], [0, 0, 2], [0, 0, 3], [0, 0, 0]]
    (y,) = run("ai.onnx", OP, 11, [boxes, scores, i64(2), f32(0.5)])
    assert y.tolist() == [[0, 0, 1], [0, 0, 2]]


def test_degenerate_boxes_never_suppress() -> None:
    """A zero-area box equal to the selected one is kept (its area is not positive)."""
    boxes = np.array([[[0, 0, 2, 2], [1, 1, 1, 1], [0, 0, 2, 2]]], np.float32)
    (y,) = run("ai.onnx", OP, 11, [boxes, np.array([[[0.9, 0.8, 0.7]]], np.float32), i64(5), f32(0.0)])
    assert y.tolist() == [[0, 0, 0], [0, 0, 1]]


@pytest.mark.parametrize("opset", [10, 11])
def test_selected_count_is_an_unknown_dim(opset: int) -> None:
    """The number of rows depends on the boxes' values through the greedy selection: the formula states it as an
    unknown dim, with or without values."""
    v = registry().resolve("ai.onnx", OP, opset)
    boxes, scores = BOXES, SCORES
    values = {"boxes": boxes.reshape(-1).tolist(), "scores": scores.reshape(-1).tolist(),
              "max_output_boxes_per_class": [3]}
    for known in ({}, values):
        (shape,) = inferred(v, [boxes, scores, i64(3)], {}, known).outputs
        assert shape is not None and [str(d) for d in shape] == ["?selected", "3"]


# onnx infers an unnamed dim by 3 at version 11 (and nothing at 10): the formula's 3 must agree
SHAPES = [shape_case(OP, 11, [[2, 6, 4], [2, 3, 6], i64(3)]), shape_case(OP, 11, [[1, 3, 4], [1, 2, 3]])]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


def _nodes() -> list[tuple[ShapeCase, str]]:
    box, score = [1, 3, 4], [1, 2, 3]
    return [
        (shape_case(OP, 11, [box, score, i64(1, 2)]), "nonmaxsuppression_c1"),
        (shape_case(OP, 11, [box, score, i64(1), f32(0.5, 0.5)]), "nonmaxsuppression_c2"),
        (shape_case(OP, 10, [box, score, i64(1), f32(0.5), np.zeros((1, 2), np.float32)]), "nonmaxsuppression_c3"),
        (shape_case(OP, 11, [box, score, i64(1), f32(1.5)]), "nonmaxsuppression_c4"),
        (shape_case(OP, 11, [box, score, i64(1), f32(-0.25)]), "nonmaxsuppression_c4"),
        (shape_case(OP, 11, [box, [1, 2, 4]]), "binding"),
        (shape_case(OP, 11, [[1, 3, 5], score]), "binding"),
        (shape_case(OP, 11, [box, score], {"center_point_box": 2}), "attr_allowed"),
    ]


test_invalid_node_reports_the_check = rejection_tests(_nodes())
