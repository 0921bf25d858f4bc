"""Tile: the kernel against onnx.reference (opset 6 on) and numpy (opset 1, which nothing else runs), the shape
formula against onnx, rejected repeats."""

from __future__ import annotations

import numpy as np

from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    formula_shapes,
    i64,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
    version,
)

OP = "Tile"
RAND = Seeded(1234)
X = RAND.f32(2, 3)
F = np.float32

CASES = [
    OracleCase(OP, {}, [X, i64(2, 3)], all_since(OP, 6), id="both"),
    OracleCase(OP, {}, [X, i64(1, 0)], all_since(OP, 6), id="zero"),
    OracleCase(OP, {}, [RAND.ints(0, 9, (2, 1, 2), np.uint8), i64(1, 3, 1)], all_since(OP, 6), id="uint8"),
    # opset 1: tiles and axis are typed like the input; one axis repeated
    OracleCase(OP, {}, [X, np.array(3, F), np.array(1, F)], (1,), oracle=lambda: [np.concatenate([X] * 3, axis=1)],
               id="axis"),
    OracleCase(OP, {}, [X, np.array([2], F), np.array([-2], F)], (1,), oracle=lambda: [np.concatenate([X] * 2)],
               id="negative_axis"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [shape_case(OP, v, [data, repeats]) for v in (6, 13) for data, repeats in (
    ([2, 3], i64(2, 3)), ([2, 3], i64(1, 0)), ([], i64()), ([4], i64(3)))]
REJECTED = [
    (shape_case(OP, 13, [[2, 3], i64(2)]), "tile_c4"),
    (shape_case(OP, 6, [[2, 3], i64(2, -1)]), "tile_c5"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_opset_1_formula_and_checks() -> None:
    """onnx infers no shape for Tile-1; the formula reads the tiles and axis values when they are known."""
    v = version("ai.onnx", OP, 1)
    assert formula_shapes(v, [[2, 3], [], []], {}, {"tiles": [3.0], "axis": [-1.0]}) == [[2, 9]]
    from tests.helpers import problem_checks

    assert "tile_c2" in problem_checks(v, [[2, 3], [], []], {}, {"tiles": [1.0], "axis": [2.0]})
    assert "tile_c3" in problem_checks(v, [[2, 3], [], []], {}, {"tiles": [-1.0], "axis": [0.0]})
    assert "tile_c1" in problem_checks(v, [[2, 3], [2], []], {}, {})
