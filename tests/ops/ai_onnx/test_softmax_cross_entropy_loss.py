"""SoftmaxCrossEntropyLoss: both outputs against onnx.reference, the shape formulas against onnx, labels
outside the classes rejected."""

from __future__ import annotations

import numpy as np

from tests.helpers import OracleCase, Seeded, all_since, oracle_tests, rejection_tests, shape_case, shape_tests

OP = "SoftmaxCrossEntropyLoss"
f32 = Seeded(11).f32


def labels(*shape: int, classes: int = 4, ignore: int | None = None) -> np.ndarray:
    t = np.random.default_rng(sum(shape) + classes).integers(0, classes, size=shape).astype(np.int64)
    if ignore is not None and t.size:
        t.flat[-1] = ignore
    return t


W = np.array([0.1, 0.4, 0.3, 0.2], np.float32)
CASES = [
    OracleCase(OP, {}, [f32(3, 4), labels(3), None], all_since(OP), n_out=2, id="mean"),
    OracleCase(OP, {"reduction": "none"}, [f32(2, 4, 3), labels(2, 3), W], all_since(OP), n_out=2, id="none_3d"),
    OracleCase(OP, {"reduction": "sum", "ignore_index": -1}, [f32(2, 4, 2, 2), labels(2, 2, 2, ignore=-1), None],
               all_since(OP), n_out=2, id="sum_ignore"),
    OracleCase(OP, {"ignore_index": 2}, [f32(6, 4), labels(6, ignore=2), W], all_since(OP), id="mean_weight"),
]

test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)

SHAPES = [shape_case(OP, opset, [[3, 4], labels(3)], attrs, n_out=2)
          for opset in (12, 13) for attrs in ({}, {"reduction": "none"})]
SHAPES += [shape_case(OP, 13, [[2, 4, 5], labels(2, 5)], {"reduction": "none"}, n_out=2)]
test_shape_formula_matches_onnx = shape_tests(SHAPES)

REJECTED = [(shape_case(OP, 13, [[3, 4], np.array([0, 4, 1], np.int64)]), "softmaxcrossentropyloss_c1")]
test_invalid_node_reports_the_check = rejection_tests(REJECTED)
