"""RMSNormalization: the kernel against onnx.reference (stash float), the function body (other stash types) and a
float64 computation (X and scale of different types, which neither runtime takes); shapes; rejected nodes."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from tests.helpers import (
    OracleCase,
    Seeded,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
)
from tests.helpers.function_body import function_body_outputs

OP = "RMSNormalization"
f32 = Seeded(1234).f32


def _body(inputs: list[np.ndarray | None], **attrs: object) -> Callable[[], list[np.ndarray]]:
    return lambda: function_body_outputs(OP, 23, inputs, attrs, 1)


X, S = f32(2, 3, 4), f32(4)
MIXED = [X.astype(np.float16), S]


def _mixed() -> list[np.ndarray]:
    x = MIXED[0].astype(np.float64)
    normalized = (x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + 1e-5)).astype(np.float16)
    return [normalized.astype(np.float32) * S]


CASES = [
    OracleCase(OP, {}, [X, S], (23,), id="last_axis"),
    OracleCase(OP, dict(axis=1, epsilon=0.25), [X, f32(3, 4)], (23,), id="axis1"),
    OracleCase(OP, dict(axis=0), [X, f32(1, 4)], (23,), id="broadcast_scale"),
    OracleCase(OP, {}, [X.astype(np.float16), S.astype(np.float16)], (23,), rtol=2e-3, id="half"),
    OracleCase(OP, dict(stash_type=11), [X, S], (23,), oracle=_body([X, S], stash_type=11), id="stash_double"),
    OracleCase(OP, dict(stash_type=10), [X, S], (23,), rtol=2e-3, oracle=_body([X, S], stash_type=10),
               id="stash_half"),
    OracleCase(OP, {}, [X.astype(np.float64), S.astype(np.float64)], (23,),
               oracle=_body([X.astype(np.float64), S.astype(np.float64)]), id="double_stash_float"),
    OracleCase(OP, {}, MIXED, (23,), rtol=2e-3, oracle=_mixed, id="mixed_types"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [shape_case(OP, 23, [x, s], attrs) for x, s, attrs in (
    ([2, 3, 4], [4], {}), ([2, 3, 4], [3, 4], {"axis": 1}), ([2, 3, 4], [1], {"axis": -3}))]

REJECTED = [
    (shape_case(OP, 23, [[2, 3], [3]], {"axis": -3}), "rmsnormalization_c1"),
    (shape_case(OP, 23, [[2, 3], [2]]), "rmsnormalization_c2"),
    (shape_case(OP, 23, [[2, 3], [3]], {"stash_type": 2}), "attr_allowed"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
