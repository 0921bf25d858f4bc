"""Dropout: the kernel against onnx.reference/the identity, mask types, shape formulas against onnx, rejected nodes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from conformance.backends.protocol import Unsupported
from tests.helpers import (
    OracleCase,
    Seeded,
    ShapeCase,
    all_since,
    assert_examples_match_kernel_and_formula,
    assert_versions_exercised,
    onnx_versions,
    oracle_tests,
    rejection_tests,
    run,
    shape_case,
    shape_tests,
)

OP = "Dropout"
f32 = Seeded(2024).f32
X = f32(2, 3, 4)


def legacy_mask(x: np.ndarray) -> Callable[[], list[np.ndarray]]:
    return lambda: [x, np.ones_like(x)]


RTOL = 1e-6  # OracleCase takes it for atol too: at least as strict as the former rtol=1e-5, atol=1e-6
CASES = [
    OracleCase(OP, dict(is_test=1), [X], all_since(OP, 1, 6), n_out=2, oracle=legacy_mask(X), rtol=RTOL, id="is_test"),
    OracleCase(OP, dict(ratio=0.0), [X], all_since(OP, 1, 6), n_out=2, oracle=legacy_mask(X), rtol=RTOL, id="ratio0"),
    # the reference's mask is bool where the schema says T; the comparison casts it
    OracleCase(OP, {}, [X], all_since(OP, 7), n_out=2, rtol=RTOL, id="default"),
    OracleCase(OP, dict(ratio=0.3), [X], all_since(OP, 7, 11), n_out=2, rtol=RTOL, id="ratio"),
    OracleCase(OP, {}, [X, np.array(0.3, np.float32)], all_since(OP, 12), n_out=2, rtol=RTOL, id="ratio"),
    OracleCase(OP, dict(seed=3), [X, np.array(0.3, np.float32), np.array(False)], all_since(OP, 12), n_out=2,
               rtol=RTOL, id="inference"),
    OracleCase(OP, {}, [X, np.array(0.0, np.float32), np.array(True)], all_since(OP, 12), n_out=2, rtol=RTOL,
               id="train_ratio0"),
    OracleCase(OP, {}, [X], all_since(OP, 7), rtol=RTOL, id="no_mask"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def test_every_version_has_a_kernel_case() -> None:
    assert_versions_exercised(OP, {v for c in CASES for v in c.since})


def test_mask_is_typed_by_version() -> None:
    x = f32(3, 2)
    for opset, dtype in ((1, np.float32), (7, np.float32), (10, np.bool_), (12, np.bool_), (22, np.bool_)):
        out = run("ai.onnx", OP, opset, [x], **({"is_test": 1} if opset < 7 else {}))
        assert len(out) == 2, f"{OP}@{opset}: {len(out)} outputs, expected output and mask"
        assert out[1].dtype == dtype and bool(np.all(out[1])), f"{OP}@{opset}: mask {out[1]!r}"


@pytest.mark.parametrize(("opset", "inputs", "attrs", "message", "error"), [
    pytest.param(12, [f32(2, 3), np.array(0.5, np.float32), np.array(True)], {}, "training_mode", Unsupported,
                 id="v12-training"),
    pytest.param(12, [f32(2, 3), None, np.array(True)], {}, "training_mode", Unsupported,
                 id="v12-training_default_ratio"),
    pytest.param(1, [f32(2, 3)], {}, "is_test", Unsupported, id="v1-not_is_test"),
    pytest.param(7, [f32(2, 3)], {"ratio": 1.0}, "ratio", ValueError, id="v7-ratio_1"),
])
def test_kernel_rejects_invalid_input(opset: int, inputs: list[np.ndarray | None], attrs: dict[str, Any],
                                      message: str, error: type[Exception]) -> None:
    with pytest.raises(error, match=message):
        run("ai.onnx", OP, opset, inputs, **attrs)


def test_examples_match_kernel_and_formula() -> None:
    assert_examples_match_kernel_and_formula("ai.onnx", OP)


def shape_cases() -> list[ShapeCase]:
    x = f32(2, 3, 4)
    cases = []
    for v in onnx_versions(OP):
        if v < 12:
            # onnx infers no mask shape before 10, and nothing at all at 1
            missing = {0: [2, 3, 4], 1: [2, 3, 4]} if v == 1 else {1: [2, 3, 4]} if v < 10 else {}
            cases.append(ShapeCase(OP, v, [x], {}, n_out=2, not_inferred_by_onnx=missing))
        else:  # ratio and training_mode are graph inputs (values unknown)
            cases.append(ShapeCase(OP, v, [x, np.array(0.2, np.float32), np.array(False)], {}, n_out=2))
            cases.append(ShapeCase(OP, v, [f32(5)], {}, n_out=1))
    return cases


SHAPES = shape_cases()
REJECTED = [
    (shape_case(OP, 7, [[2, 3]], {"ratio": 1.0}), "dropout_c1"),
    (shape_case(OP, 13, [[2, 3], np.array(1.5, np.float32), []]), "dropout_c2"),
    (shape_case(OP, 13, [[2, 3], [1], []]), "rank"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
