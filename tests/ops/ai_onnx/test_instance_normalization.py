"""InstanceNormalization: the kernel against onnx.reference (4-D, 3-D and 5-D, half precision), shapes against
onnx (opset 1 has no shape inference in onnx), rejected nodes."""

from __future__ import annotations

import numpy as np

from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
)

OP = "InstanceNormalization"
f32 = Seeded(1234).f32

CASES = [
    OracleCase(OP, {}, [f32(2, 3, 4, 5), f32(3), f32(3)], all_since(OP), id="4d"),
    OracleCase(OP, dict(epsilon=0.5), [f32(1, 2, 3, 3), f32(2), f32(2)], all_since(OP), id="epsilon"),
    OracleCase(OP, {}, [f32(2, 3, 7), f32(3), f32(3)], all_since(OP, 6), id="3d"),
    OracleCase(OP, {}, [f32(1, 2, 2, 3, 2), f32(2), f32(2)], all_since(OP, 6), id="5d"),
    OracleCase(OP, {}, [x.astype(np.float16) for x in (f32(2, 3, 4, 4), f32(3), f32(3))], all_since(OP), rtol=2e-3,
               id="half"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [shape_case(OP, 1, [[2, 3, 4, 5], [3], [3]], not_inferred_by_onnx={0: [2, 3, 4, 5]})]
SHAPES += [shape_case(OP, opset, [x, [3], [3]]) for opset in all_since(OP, 6) for x in ([2, 3, 4, 5], [1, 3, 7])]

REJECTED = [
    (shape_case(OP, 6, [[2, 3], [3], [3]]), "instancenormalization_c1"),
    (shape_case(OP, 22, [[2, 3, 4], [4], [4]]), "binding"),
    (shape_case(OP, 1, [[2, 3, 4], [3], [3]]), "rank"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
