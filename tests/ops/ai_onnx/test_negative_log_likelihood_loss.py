"""NegativeLogLikelihoodLoss: the kernel against onnxruntime (and onnx.reference where they agree), the shape
formula against onnx, labels outside the classes rejected, and the reading where onnx.reference differs."""

from __future__ import annotations

import numpy as np

from tests.helpers import OracleCase, Seeded, all_since, kernel, oracle_tests, rejection_tests, shape_case, shape_tests

OP = "NegativeLogLikelihoodLoss"
rng = Seeded(7)
f32 = rng.f32


def labels(*shape: int, classes: int = 3, ignore: int | None = None) -> np.ndarray:
    t = np.random.default_rng(sum(shape) + classes).integers(0, classes, size=shape).astype(np.int64)
    if ignore is not None and t.size:
        t.flat[0] = ignore
    return t


W = np.array([0.2, 0.5, 0.3], np.float32)
CASES = [
    OracleCase(OP, {}, [f32(4, 3), labels(4), None], all_since(OP), id="mean"),
    OracleCase(OP, {"reduction": "none"}, [f32(2, 3, 5), labels(2, 5), None], all_since(OP), id="none_3d"),
    OracleCase(OP, {"reduction": "sum"}, [f32(2, 3, 2, 2), labels(2, 2, 2), W], all_since(OP), id="sum_4d_weight"),
    OracleCase(OP, {"ignore_index": 1}, [f32(5, 3), labels(5, ignore=1), W], all_since(OP), id="mean_weight_ignore"),
    # ignore_index -1 without weight: onnxruntime's reading (the registry's), not onnx.reference's
    OracleCase(OP, {"ignore_index": -1}, [f32(5, 3), labels(5, ignore=-1), None], all_since(OP), oracle="ort",
               id="mean_ignore_minus_1"),
]

test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)

SHAPES = [shape_case(OP, opset, [[4, 3], labels(4)], attrs)
          for opset in (12, 13, 22) for attrs in ({}, {"reduction": "none"}, {"reduction": "sum"})]
SHAPES += [shape_case(OP, 13, [[2, 3, 4, 5], labels(2, 4, 5)], {"reduction": "none"})]
test_shape_formula_matches_onnx = shape_tests(SHAPES)

REJECTED = [
    (shape_case(OP, 13, [[4, 3], np.array([0, 1, 3, 2], np.int64)]), "negativeloglikelihoodloss_c1"),
    (shape_case(OP, 13, [[4, 3], np.array([0, -1, 2, 2], np.int64)], {"ignore_index": -100}),
     "negativeloglikelihoodloss_c1"),
    (shape_case(OP, 13, [[4, 3], labels(5)]), "binding"),
]
test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_every_sample_ignored_gives_nan_for_mean() -> None:
    (loss,) = kernel("ai.onnx", OP, 13)(f32(2, 3), np.array([1, 1], np.int64), None, reduction="mean",
                                       ignore_index=1)
    assert np.isnan(loss) and loss.dtype == np.float32
