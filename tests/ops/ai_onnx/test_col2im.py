"""Col2Im: the kernel against onnx.reference (2-D and 3-D images, strides, pads, dilations; integers), the
data-dependent shape formula against onnx, rejected nodes."""

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

OP = "Col2Im"
SEEDED = Seeded(1234)

CASES = [
    OracleCase(OP, {}, [SEEDED.f32(2, 2 * 6, 9), i64(4, 5), i64(2, 3)], all_since(OP), id="overlapping"),
    OracleCase(OP, dict(strides=[2, 2], dilations=[1, 2], pads=[1, 0, 0, 1]), [SEEDED.f32(1, 2 * 4, 4), i64(4, 5),
                                                                               i64(2, 2)], all_since(OP),
               id="strides_dilations_pads"),
    OracleCase(OP, {}, [SEEDED.f32(1, 8, 8), i64(3, 3, 3), i64(2, 2, 2)], all_since(OP), id="3d"),
    OracleCase(OP, dict(dilations=[2, 1, 2], pads=[0, 1, 0, 1, 0, 0]), [SEEDED.f32(1, 8, 18), i64(4, 3, 4),
                                                                        i64(2, 2, 2)], all_since(OP),
               id="3d_dilated"),
    OracleCase(OP, dict(strides=[1, 2]), [SEEDED.f32(1, 4, 4), i64(3, 4), i64(2, 2)], all_since(OP), oracle="ort",
               id="2d_ort"),
    OracleCase(OP, {}, [np.arange(24, dtype=np.int32).reshape(1, 4, 6), i64(3, 4), i64(2, 2)], all_since(OP),
               id="int32"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [shape_case(OP, 18, [shape, image, block], attrs) for shape, image, block, attrs in (
    ([2, 12, 9], i64(4, 5), i64(2, 3), {}),
    ([1, 8, 4], i64(4, 5), i64(2, 2), {"strides": [2, 2], "dilations": [1, 2], "pads": [1, 0, 0, 1]}),
    ([1, 16, 8], i64(3, 3, 3), i64(2, 2, 2), {}),
)]

REJECTED = [(shape_case(OP, 18, [shape, image, block], attrs), check) for shape, image, block, attrs, check in (
    ([1, 2, 4], i64(5), i64(2), {}, "col2im_c1"),  # the text asks for 2 or more image axes
    ([1, 4, 6], i64(3, 4), i64(2, 2, 1), {}, "col2im_c2"),
    ([1, 4, 6], i64(3, 4), i64(2, 0), {}, "col2im_c3"),
    ([1, 5, 6], i64(3, 4), i64(2, 2), {}, "col2im_c4"),
    ([1, 4, 5], i64(3, 4), i64(2, 2), {}, "col2im_c5"),
    ([1, 4, 1], i64(3, 4), i64(2, 2), {"dilations": [3, 1]}, "col2im_c5"),  # a dilated block larger than the image
)]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
