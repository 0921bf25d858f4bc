"""LayerNormalization: the kernel against onnx.reference (float32) and the op's function body (float16 and double,
where onnx.reference ignores stash_type), shapes of all three outputs against onnx, rejected nodes."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from opset.formula import Sym
from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
    symbolic_shape,
)
from tests.helpers.function_body import function_body_outputs

OP = "LayerNormalization"
f32 = Seeded(1234).f32
ALL = all_since(OP)


def _body(inputs: list[np.ndarray | None], **attrs: object) -> Callable[[], list[np.ndarray]]:
    return lambda: function_body_outputs(OP, 17, inputs, attrs, 3)


HALF = [f32(2, 3, 4).astype(np.float16), f32(4).astype(np.float16), f32(4).astype(np.float16)]
DOUBLE = [f32(3, 2, 5).astype(np.float64), f32(2, 5).astype(np.float64), None]

CASES = [
    OracleCase(OP, {}, [f32(2, 3, 4), f32(4), f32(4)], ALL, n_out=3, id="last_axis"),
    OracleCase(OP, dict(axis=1, epsilon=0.25), [f32(2, 3, 4), f32(3, 4), f32(3, 4)], ALL, n_out=3, id="axis1"),
    OracleCase(OP, dict(axis=-3), [f32(2, 3, 4), f32(1, 4), None], ALL, n_out=3, id="broadcast_scale_no_bias"),
    OracleCase(OP, dict(axis=0), [f32(5, 2), f32(2), f32(1)], ALL, n_out=3, id="axis0"),
    OracleCase(OP, {}, HALF, ALL, n_out=3, rtol=2e-3, oracle=_body(HALF), id="half"),
    OracleCase(OP, dict(axis=1), DOUBLE, ALL, n_out=3, oracle=_body(DOUBLE, axis=1), id="double"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [shape_case(OP, 17, [x, s], attrs, n_out=3) for x, s, attrs in (
    ([2, 3, 4], [4], {}), ([2, 3, 4], [3, 4], {"axis": 1}), ([2, 3, 4], [1], {"axis": 0}), ([5], [5], {"axis": -1}))]

REJECTED = [
    (shape_case(OP, 17, [[2, 3], [3]], {"axis": 2}), "layernormalization_c1"),
    (shape_case(OP, 17, [[], []]), "layernormalization_c1"),
    (shape_case(OP, 17, [[2, 3], [2]]), "layernormalization_c2"),
    (shape_case(OP, 17, [[2, 3], [3], [2, 2, 3]]), "layernormalization_c3"),
    (shape_case(OP, 17, [[2, 3], [3]], {"stash_type": 11}), "attr_allowed"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_symbolic_mean_shape() -> None:
    from tests.helpers import inferred, version

    result = inferred(version("ai.onnx", OP, 17), [[Sym("N"), 3, 4], [3, 4]], {"axis": -2})
    assert [str(d) for d in result.outputs[1] or []] == ["N", "1", "1"]
    assert symbolic_shape(OP, 17, [[Sym("N"), 3, 4], [4]]) == ["N", "3", "4"]
