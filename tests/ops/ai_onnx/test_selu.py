"""Selu: the kernel against onnx.reference (version 1's own defaults too), the shape formula against onnx."""

from __future__ import annotations

from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    one_node_model,
    oracle_tests,
    run_onnx_reference,
    shape_case,
    shape_tests,
)

OP = "Selu"
X = Seeded(2004).f32(3, 4, 5) * 2


def _reference_with_version_1_defaults() -> list:
    """onnx.reference applies version 6's defaults to a version-1 node (reading selu_r1): state 1's explicitly."""
    return run_onnx_reference(*one_node_model(OP, 1, [X], {"alpha": 1.6732, "gamma": 1.0507}, 1))


CASES = [
    OracleCase(OP, {}, [X], all_since(OP, 6), id="defaults"),
    OracleCase(OP, {}, [X], (1,), oracle=_reference_with_version_1_defaults, rtol=1e-6, id="v1_defaults"),
    OracleCase(OP, dict(alpha=0.5, gamma=2.0), [X], all_since(OP), id="alpha_gamma"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [
    shape_case(OP, 6, [[2, 3, 4]]),
    shape_case(OP, 22, [[5]], {"gamma": 2.0}),
    shape_case(OP, 1, [[3]], not_inferred_by_onnx={0: [3]}),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)
