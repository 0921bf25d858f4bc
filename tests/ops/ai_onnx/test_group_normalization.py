"""GroupNormalization: the kernel against onnx.reference, which runs the op's function body (per-group scale in 18,
per-channel scale and stash types in 21), shapes against onnx, rejected nodes."""

from __future__ import annotations

import numpy as np

from tests.helpers import (
    OracleCase,
    Seeded,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
)

OP = "GroupNormalization"
f32 = Seeded(1234).f32
X = f32(2, 6, 3, 2)


def half(*xs: np.ndarray) -> list[np.ndarray | None]:
    return [x.astype(np.float16) for x in xs]


CASES = [
    OracleCase(OP, dict(num_groups=3), [X, f32(3), f32(3)], (18,), id="per_group"),
    OracleCase(OP, dict(num_groups=1, epsilon=0.5), [f32(2, 4, 5), f32(1), f32(1)], (18,), id="one_group"),
    OracleCase(OP, dict(num_groups=2), half(X, f32(2), f32(2)), (18,), rtol=2e-3, id="per_group_half"),
    OracleCase(OP, dict(num_groups=3), [X, f32(6), f32(6)], (21,), id="per_channel"),
    OracleCase(OP, dict(num_groups=6), [f32(1, 6, 4), f32(6), f32(6)], (21,), id="instance_like"),
    OracleCase(OP, dict(num_groups=2), half(X, f32(6), f32(6)), (21,), rtol=2e-3, id="per_channel_half"),
    OracleCase(OP, dict(num_groups=2, stash_type=11), [X, f32(6), f32(6)], (21,), id="stash_double"),
    OracleCase(OP, dict(num_groups=3, stash_type=10), [X, f32(6), f32(6)], (21,), rtol=2e-3, id="stash_half"),
    OracleCase(OP, dict(num_groups=2), [x.astype(np.float64) for x in (X, f32(6), f32(6))], (21,), rtol=1e-5,
               id="double_stash_float"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


# onnx infers no shape for this function op: the formula must give X's shape
SHAPES = [
    shape_case(OP, 18, [[2, 6, 3, 2], [3], [3]], {"num_groups": 3}, not_inferred_by_onnx={0: [2, 6, 3, 2]}),
    shape_case(OP, 21, [[2, 6, 3, 2], [6], [6]], {"num_groups": 3}, not_inferred_by_onnx={0: [2, 6, 3, 2]}),
    shape_case(OP, 21, [[1, 4, 5], [4], [4]], {"num_groups": 4, "stash_type": 11}, not_inferred_by_onnx={0: [1, 4, 5]}),
]

REJECTED = [
    (shape_case(OP, 18, [[2, 6, 3], [4], [4]], {"num_groups": 4}), "groupnormalization_c1"),
    (shape_case(OP, 18, [[2, 6, 3], [6], [6]], {"num_groups": 3}), "groupnormalization_c2"),
    (shape_case(OP, 21, [[2, 6, 3], [6], [6]], {"num_groups": 4}), "groupnormalization_c1"),
    (shape_case(OP, 21, [[2, 6, 3], [3], [3]], {"num_groups": 3}), "binding"),
    (shape_case(OP, 21, [[2, 6, 3], [6], [6]], {"num_groups": 0}), "attr_range"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
