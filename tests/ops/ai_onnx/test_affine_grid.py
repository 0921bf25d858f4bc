"""AffineGrid: the kernel against onnx.reference and onnxruntime, axes of length 1 by hand, the data-dependent
shape formula against onnx's shape inference, rejected nodes."""

from __future__ import annotations

import numpy as np

from tests.helpers import (
    OracleCase,
    Seeded,
    i64,
    oracle_outputs,
    oracle_tests,
    rejection_tests,
    run,
    shape_case,
    shape_tests,
)

OP = "AffineGrid"
f32 = Seeded(4327).f32
THETA2 = f32(2, 2, 3)
THETA3 = f32(1, 3, 4)
SIZE2 = i64(2, 3, 4, 5)
SIZE3 = i64(1, 2, 3, 4, 2)


def half_of(case: OracleCase) -> list[np.ndarray]:
    """onnx.reference answers in float32 whatever theta's type: its values, in float16."""
    return [y.astype(np.float16) for y in oracle_outputs(case, 20)]


REF_HALF = OracleCase(OP, {"align_corners": 1}, [THETA2.astype(np.float16).astype(np.float32), SIZE2], (20,))
CASES = [
    OracleCase(OP, {}, [THETA2, SIZE2], (20,), id="2d"),
    OracleCase(OP, {"align_corners": 1}, [THETA2, SIZE2], (20,), id="2d_align_corners"),
    OracleCase(OP, {}, [THETA3, SIZE3], (20,), id="3d"),
    OracleCase(OP, {"align_corners": 1}, [THETA3, SIZE3], (20,), id="3d_align_corners"),
    # onnx.reference returns float32 for a double theta: onnxruntime is the oracle there
    OracleCase(OP, {"align_corners": 1}, [THETA3.astype(np.float64), SIZE3], (20,), oracle="ort", id="double"),
    OracleCase(OP, {"align_corners": 1}, [THETA2.astype(np.float16), SIZE2], (20,),
               oracle=lambda: half_of(REF_HALF), rtol=2e-3, id="half"),
    # an axis of length 1 with align_corners = 0: every source agrees on position 0
    OracleCase(OP, {}, [THETA2, i64(2, 1, 1, 3)], (20,), id="single_row"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def test_single_position_is_the_centre() -> None:
    """A 1 x 3 grid with align_corners = 1: y is 0 (the one row's centre), x runs -1, 0, 1. onnx.reference puts
    the row at -1 and onnxruntime at 1 (the readings)."""
    identity = np.array([[[1, 0, 0], [0, 1, 0]]], np.float32)
    (grid,) = run("ai.onnx", OP, 20, [identity, i64(1, 1, 1, 3)], align_corners=1)
    np.testing.assert_allclose(grid.reshape(-1, 2), [[-1, 0], [0, 0], [1, 0]])


def test_translation_moves_every_point() -> None:
    """theta = [I | t] adds t to each normalised position; positions with align_corners = 0 are pixel centres."""
    theta = np.array([[[1, 0, 0.5], [0, 1, -0.25]]], np.float32)
    (grid,) = run("ai.onnx", OP, 20, [theta, i64(1, 1, 2, 4)], align_corners=0)
    xs = np.array([-0.75, -0.25, 0.25, 0.75]) + 0.5
    ys = np.array([-0.5, 0.5]) - 0.25
    np.testing.assert_allclose(grid[0, :, :, 0], np.broadcast_to(xs, (2, 4)))
    np.testing.assert_allclose(grid[0, :, :, 1], np.broadcast_to(ys[:, None], (2, 4)))


SHAPES = [
    shape_case(OP, 20, [[2, 2, 3], SIZE2]),
    shape_case(OP, 20, [[1, 3, 4], SIZE3], {"align_corners": 1}),
]

REJECTED = [
    (shape_case(OP, 20, [[2, 4, 5], i64(2, 1, 2, 2, 2, 2)]), "affinegrid_c1"),
    (shape_case(OP, 20, [[2, 2, 4], SIZE2]), "affinegrid_c2"),
    (shape_case(OP, 20, [[1, 3, 4], i64(1, 1, 4, 4)]), "affinegrid_c3"),
    (shape_case(OP, 20, [[1, 2, 3], SIZE2]), "affinegrid_c4"),
    (shape_case(OP, 20, [[2, 2, 3], i64(2, 1, 0, 4)]), "affinegrid_c5"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
