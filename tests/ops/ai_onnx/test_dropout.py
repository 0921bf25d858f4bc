"""Dropout: the kernel against onnx.reference/the identity where nothing is random (inference, ratio 0), training
draws of ours, onnx.reference and onnxruntime passing conform's law check (output = data * mask / (1 - ratio)), mask
types, seeds, shape formulas against onnx, rejected nodes. The keep rate itself is tests/ops/test_random_laws.py's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    Seeded,
    ShapeCase,
    all_since,
    assert_draws_pass_the_law,
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


@pytest.mark.parametrize(("opset", "inputs", "attrs", "n_out", "oracles"), [
    pytest.param(12, [f32(3, 4), np.array(0.5, np.float32), np.array(True)], {}, 2, ("ref", "ort"), id="v12"),
    pytest.param(13, [f32(2, 5), np.array(0.75, np.float32), np.array(True)], {"seed": 4}, 2, ("ref", "ort"),
                 id="v13-seed"),
    # onnx.reference fails on an omitted ratio before training_mode (it compares None with the draws)
    pytest.param(13, [f32(4, 4), None, np.array(True)], {}, 1, ("ort",), id="v13-default_ratio-no_mask"),
    # onnx.reference turns float16 data into a float32 output in training (its scale is float32); onnxruntime has
    # no opset 22
    pytest.param(22, [f32(6).astype(np.float16), np.array(0.25, np.float16), np.array(True)], {}, 2, (),
                 id="v22-float16"),
    pytest.param(22, [f32(6).astype(np.float64), np.array(0.25, np.float64), np.array(True)], {}, 2, ("ref",),
                 id="v22-double"),
    pytest.param(1, [f32(3, 3)], {"ratio": 0.5}, 2, (), id="v1-is_test0"),  # neither onnx.reference nor ORT has it
])
def test_training_draws_pass_the_law_check(opset: int, inputs: list[np.ndarray | None], attrs: dict[str, Any],
                                           n_out: int, oracles: tuple[str, ...]) -> None:
    assert_draws_pass_the_law(OP, opset, inputs, attrs, n_out, oracles=oracles)


def test_training_keeps_scaled_data_where_the_mask_is_true() -> None:
    x = f32(200)
    out, mask = run("ai.onnx", OP, 13, [x, np.array(0.75, np.float32), np.array(True)], seed=1)
    assert mask.dtype == np.bool_ and 0 < int(mask.sum()) < x.size
    np.testing.assert_array_equal(out, np.where(mask, x * np.float32(4.0), np.float32(0.0)))
    legacy_out, legacy_mask = run("ai.onnx", OP, 1, [x], ratio=0.5)
    assert legacy_mask.dtype == np.float32 and set(np.unique(legacy_mask).tolist()) <= {0.0, 1.0}
    np.testing.assert_array_equal(legacy_out, x * 2 * legacy_mask)


@pytest.mark.parametrize(("opset", "inputs", "attrs"), [
    pytest.param(7, [f32(2, 3)], {"ratio": 1.0}, id="v7-ratio_1"),
    pytest.param(1, [f32(2, 3)], {"ratio": -0.25, "is_test": 0}, id="v1-negative"),
    pytest.param(13, [f32(2, 3), np.array(1.0, np.float32), np.array(True)], {}, id="v13-ratio_1"),
])
def test_kernel_rejects_invalid_input(opset: int, inputs: list[np.ndarray | None], attrs: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="ratio"):
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
