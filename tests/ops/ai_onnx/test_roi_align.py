"""RoiAlign: the kernel against onnx.reference and onnxruntime, the shape formula against onnx's shape inference,
rejected nodes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    i64,
    oracle_tests,
    rejection_tests,
    run,
    shape_case,
    shape_tests,
)

OP = "RoiAlign"
f32 = Seeded(4325).f32
X = f32(2, 3, 7, 6)
# inside, partly outside, around a pixel centre, thinner than a pixel, beyond the image (samples count as 0)
ROIS = np.array([[0.5, 1, 4.25, 5.5], [-2, -1.5, 3, 2], [2.5, 2.5, 2.75, 3.5], [1, 0, 5.5, 0.5], [6.5, 7.5, 9, 9]],
                np.float32)
BATCH = i64(0, 1, 1, 0, 1)

NAMED: list[tuple[str, dict[str, Any]]] = [
    ("default", {}),
    ("bins_2x3", dict(output_height=2, output_width=3)),
    ("sampling_2", dict(output_height=3, output_width=2, sampling_ratio=2)),
    ("scale", dict(output_height=2, output_width=2, spatial_scale=0.5)),
    ("max", dict(output_height=3, output_width=3, mode="max")),
    ("max_sampling_1", dict(output_height=2, output_width=2, sampling_ratio=1, mode="max", spatial_scale=1.5)),
]


def kernel_cases() -> list[OracleCase]:
    cases = []
    for name, attrs in NAMED:
        for ctm in ("half_pixel", "output_half_pixel"):
            cases.append(OracleCase(OP, {**attrs, "coordinate_transformation_mode": ctm}, [X, ROIS, BATCH],
                                    all_since(OP, 16), id=f"{name}_{ctm}"))
        # version 10 does not shift the RoIs; onnx.reference shifts them there too (see the readings)
        cases.append(OracleCase(OP, attrs, [X, ROIS, BATCH], (10,), oracle="ort", id=f"{name}_v10"))
    cases.append(OracleCase(OP, dict(output_height=2, output_width=2), [X.astype(np.float64),
                                                                         ROIS.astype(np.float64), BATCH],
                            all_since(OP, 16), id="double"))
    cases.append(OracleCase(OP, dict(output_height=2, output_width=2, mode="max"),
                            [X.astype(np.float16), ROIS.astype(np.float16), BATCH], (16,), oracle="ort", rtol=2e-3,
                            id="fp16"))
    return cases


CASES = kernel_cases()


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def test_max_takes_the_largest_weighted_corner() -> None:
    """One sample at (0.5, 0.5) of a 2x2 image [[4, 0], [0, 0]]: each corner weighs 1/4, so max gives 4 / 4 = 1
    (the largest weighted corner term, which here equals the interpolated value 1); with [[4, 4], [4, 4]] the
    interpolated value is 4 but the largest weighted term is still 1."""
    rois, batch = np.array([[0, 0, 1, 1]], np.float32), i64(0)
    for image, want in (([[4, 0], [0, 0]], 1.0), ([[4, 4], [4, 4]], 1.0)):
        x = np.array(image, np.float32).reshape(1, 1, 2, 2)
        (y,) = run("ai.onnx", OP, 16, [x, rois, batch], coordinate_transformation_mode="output_half_pixel",
                   mode="max", sampling_ratio=1)
        assert y.reshape(-1).tolist() == [pytest.approx(want)]


SHAPES = [
    shape_case(OP, 10, [[2, 3, 7, 6], [5, 4], [5]], {"output_height": 2, "output_width": 3}),
    shape_case(OP, 16, [[1, 4, 5, 5], [3, 4], [3]]),
    shape_case(OP, 22, [[1, 4, 5, 5], [2, 4], [2]], {"output_height": 4, "mode": "max"}),
]

REJECTED = [
    (shape_case(OP, 16, [[1, 4, 5, 5], [3, 4], [2]]), "binding"),
    (shape_case(OP, 16, [[1, 4, 5, 5], [3, 5], [3]]), "binding"),
    (shape_case(OP, 16, [[1, 4, 5, 5], [3, 4], [3]], {"output_height": 0}), "attr_range"),
    (shape_case(OP, 16, [[1, 4, 5, 5], [3, 4], [3]], {"sampling_ratio": -1}), "attr_range"),
    (shape_case(OP, 16, [[1, 4, 5, 5], [3, 4], [3]], {"mode": "sum"}), "attr_allowed"),
    (shape_case(OP, 16, [[1, 4, 5, 5], [3, 4], [3]], {"coordinate_transformation_mode": "asymmetric"}),
     "attr_allowed"),
    (shape_case(OP, 10, [[2, 4, 5, 5], [2, 4], i64(0, 2)]), "roialign_c1"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
