"""BatchNormalization: the kernel against onnx.reference/onnxruntime/the formula, shape formulas, rejected nodes."""

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

OP = "BatchNormalization"
f32 = Seeded(1234).f32


def bn_formula(x: np.ndarray, s: np.ndarray, b: np.ndarray, m: np.ndarray, v: np.ndarray, eps: float = 1e-5,
               spatial: bool = True) -> np.ndarray:
    shape = (1, -1, 1, 1) if spatial else (1, *x.shape[1:])
    s, b, m, v = (t.reshape(shape) for t in (s, b, m, v))
    return ((x - m) / np.sqrt(v + eps) * s + b).astype(x.dtype)


def bn_training(x: np.ndarray, s: np.ndarray, b: np.ndarray, m: np.ndarray, v: np.ndarray,
                momentum: float) -> list[np.ndarray]:
    bm, bv = x.mean(axis=(0, 2, 3)), x.var(axis=(0, 2, 3))
    return [bn_formula(x, s, b, bm, bv), m * momentum + bm * (1 - momentum), v * momentum + bv * (1 - momentum),
            bm, bv]


X = f32(2, 3, 4, 5)
P = [f32(3), f32(3), f32(3), np.abs(f32(3)) + 0.5]
PS = [f32(3, 4, 5), f32(3, 4, 5), f32(3, 4, 5), np.abs(f32(3, 4, 5)) + 0.5]

CASES = [
    OracleCase(OP, dict(epsilon=1e-3), [X, *P], all_since(OP, 14), id="infer"),
    OracleCase(OP, dict(is_test=1), [X, *P], all_since(OP, 1, 6), oracle=lambda: [bn_formula(X, *P)], id="is_test"),
    OracleCase(OP, dict(is_test=1, spatial=0), [X, *PS], all_since(OP, 1, 6),
               oracle=lambda: [bn_formula(X, *PS, spatial=False)], id="per_activation"),
    OracleCase(OP, dict(momentum=0.7), [X, *P], all_since(OP, 1, 6), n_out=5,
               oracle=lambda: bn_training(X, *P, momentum=0.7), id="train_v1"),
    OracleCase(OP, {}, [X, *P], all_since(OP, 7, 13), oracle="ort", id="infer_old"),
    OracleCase(OP, dict(training_mode=1, momentum=0.8), [X, *P], all_since(OP, 14), n_out=3, rtol=1e-3,
               id="training"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [
    shape_case(OP, 6, [[2, 3, 4, 5], [3], [3], [3], [3]]),
    shape_case(OP, 7, [[2, 3], [3], [3], [3], [3]]),
    shape_case(OP, 7, [[2, 3, 4, 5], [3, 4, 5], [3, 4, 5], [3, 4, 5], [3, 4, 5]], {"spatial": 0}),
    # onnx infers only Y when the running and saved statistics are asked for: theirs are the statistics' shapes
    shape_case(OP, 7, [[2, 3, 4], [3, 4], [3, 4], [3, 4], [3, 4]], {"spatial": 0}, n_out=5,
               not_inferred_by_onnx={k: [3, 4] for k in range(1, 5)}),
    shape_case(OP, 9, [[2, 3, 4, 5], [3], [3], [3], [3]], {}, n_out=5,
               not_inferred_by_onnx={k: [3] for k in range(1, 5)}),
    shape_case(OP, 14, [[2, 3, 4, 5], [3], [3], [3], [3]], {"training_mode": 1}, n_out=3),
    shape_case(OP, 15, [[2, 3, 4], [3], [3], [3], [3]]),
    shape_case(OP, 15, [[6], [1], [1], [1], [1]]),
    shape_case(OP, 1, [[2, 3, 4, 5], [3], [3], [3], [3]], {"consumed_inputs": [0, 0, 0, 1, 1]}, n_out=5,
               not_inferred_by_onnx={0: [2, 3, 4, 5], 1: [3], 2: [3], 3: [3], 4: [3]}),
]

REJECTED = [
    (shape_case(OP, 7, [[2, 3, 4], [4], [3], [3], [3]]), "batchnormalization_c1"),
    (shape_case(OP, 15, [[2, 3, 4], [4], [4], [4], [4]]), "batchnormalization_c2"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
