"""TreeEnsembleClassifier: the kernel against onnxruntime (binary ensembles as converters write them, multi-class
ones, string labels, NaN routing) and onnx.reference, the shape formulas against onnx and onnxruntime, rejected
nodes, and the two readings onnxruntime follows."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
import pytest

from opset.infer import infer_shapes
from opset.validate import check_model
from tests.helpers import (
    OracleCase,
    assert_matches_oracle,
    assert_registry_ranges_exercised,
    kernel_outputs,
    node_diagnostics,
    oracle_params,
    version,
)
from tests.helpers.ml_models import (
    DOMAIN,
    assert_shapes_match,
    checks,
    formula_shapes,
    ml_model,
    ort_outputs,
    tensor,
    validation_errors,
)

OP = "TreeEnsembleClassifier"
NAN = float("nan")
X = np.array([[1.0, 0.0], [1.0, 1.0], [0.5, -1.0], [2.0, NAN], [NAN, 0.5], [3.0, 0.75]], dtype=np.float32)
LEAVES = [(0, 1), (0, 3), (0, 4), (1, 1), (1, 2)]


def trees(mode: str = "BRANCH_LEQ", missing: list[int] | None = None) -> dict[str, Any]:
    """Tree 0: node 0 (feature 0 `mode` 1.0) -> leaf 1 | node 2 (feature 1 BRANCH_LT 0.0) -> leaves 3 | 4.
    Tree 1: node 0 (feature 1 BRANCH_GTE 0.5) -> leaves 1 | 2."""
    attrs: dict[str, Any] = dict(
        nodes_treeids=[0, 0, 0, 0, 0, 1, 1, 1], nodes_nodeids=[0, 1, 2, 3, 4, 0, 1, 2],
        nodes_featureids=[0, 0, 1, 0, 0, 1, 0, 0],
        nodes_modes=[mode, "LEAF", "BRANCH_LT", "LEAF", "LEAF", "BRANCH_GTE", "LEAF", "LEAF"],
        nodes_values=[1.0, 0.0, 0.0, 0.0, 0.0, 0.5, 0.0, 0.0],
        nodes_truenodeids=[1, 0, 3, 0, 0, 1, 0, 0], nodes_falsenodeids=[2, 0, 4, 0, 0, 2, 0, 0])
    if missing is not None:
        attrs["nodes_missing_value_tracks_true"] = missing
    return attrs


def votes(classes: list[list[int]], weights: list[float]) -> dict[str, Any]:
    """Leaf k of LEAVES votes for the classes classes[k], with weights taken in order."""
    pairs = [(t, n, c) for (t, n), cs in zip(LEAVES, classes, strict=True) for c in cs]
    assert len(pairs) == len(weights)
    return dict(class_treeids=[t for t, _, _ in pairs], class_nodeids=[n for _, n, _ in pairs],
                class_ids=[c for _, _, c in pairs], class_weights=weights)


# the binary ensembles converters write: every vote for class 0 (skl2onnx) or class 1
BINARY_POSITIVE = votes([[0]] * 5, [0.25, 0.5, 0.125, 0.375, 0.25])  # all >= 0: the 0.5 threshold, [1 - p, p]
BINARY_MIXED = votes([[0]] * 5, [0.25, -0.5, 0.125, -0.375, 0.75])  # mixed signs: the 0 threshold, [-s, s]
BINARY_CLASS_1 = votes([[1]] * 5, [0.25, -0.5, 0.125, -0.375, 0.75])
MULTI = votes([[0, 1], [2], [0, 2], [1], [0, 1, 2]], [0.5, 0.25, 1.0, 0.25, 0.75, 0.5, 0.125, 0.375, 0.25])
LABELS = {"classlabels_int64s": [3, 7]}
LABELS3 = {"classlabels_int64s": [-1, 4, 9]}


def case(attrs: dict[str, Any], since: tuple[int, ...] = (1, 3), x: np.ndarray = X, oracle: str = "ort",
         id: str = "") -> OracleCase:
    return OracleCase(OP, attrs, [x], since, n_out=2, oracle=oracle, rtol=1e-5, id=id, domain=DOMAIN)


def integer_case(attrs: dict[str, Any], dtype: type[np.integer[Any]]) -> OracleCase:
    """onnxruntime has no integer TreeEnsembleClassifier: its float kernel on the same values is the oracle."""
    x = np.array([[1, 0], [2, -1], [0, 3], [1, 1]], dtype=dtype)
    return OracleCase(OP, attrs, [x], (1, 3), n_out=2,
                      oracle=lambda: ort_outputs(OP, 1, x.astype(np.float32), attrs, 2), rtol=1e-5,
                      id=f"{np.dtype(dtype).name}", domain=DOMAIN)


POSTS = ("NONE", "SOFTMAX", "LOGISTIC", "SOFTMAX_ZERO")
CASES = [
    *[case({**trees(), **BINARY_POSITIVE, **LABELS, "post_transform": p}, id=f"binary_positive_{p}") for p in POSTS],
    *[case({**trees(), **BINARY_MIXED, **LABELS, "post_transform": p}, id=f"binary_mixed_{p}") for p in POSTS],
    *[case({**trees("BRANCH_LT"), **BINARY_MIXED, **LABELS, "post_transform": p, "base_values": [-0.25]},
           id=f"binary_one_base_{p}") for p in POSTS],
    *[case({**trees("BRANCH_GT"), **BINARY_POSITIVE, **LABELS, "post_transform": p, "base_values": [0.125, -0.25]},
           id=f"binary_two_bases_{p}") for p in (*POSTS, "PROBIT")],
    *[case({**trees("BRANCH_NEQ"), **BINARY_CLASS_1, **LABELS, "post_transform": p, **base}, id=f"class_1_{p}_{n}")
      for p in POSTS for n, base in (("no_base", {}), ("one_base", {"base_values": [0.5]}))],
    *[case({**trees(), **MULTI, **LABELS3, "post_transform": p}, id=f"multi_{p}") for p in (*POSTS, "PROBIT")],
    case({**trees("BRANCH_EQ"), **MULTI, **LABELS3, "base_values": [0.25, -0.5, 0.125], "post_transform": "SOFTMAX"},
         id="multi_base"),
    case({**trees("BRANCH_GTE", missing=[1, 0, 1, 0, 0, 0, 0, 0]), **BINARY_MIXED, **LABELS}, id="missing_tracks"),
    case({**trees(), **BINARY_MIXED, "classlabels_strings": ["no", "yes"], "post_transform": "LOGISTIC"},
         id="strings_binary"),
    case({**trees(), **MULTI, "classlabels_strings": ["a", "b", "c"]}, id="strings_multi"),
    case({**trees(), **MULTI, **LABELS3}, x=X.astype(np.float64), id="double"),
    case({**{k: v for k, v in trees("BRANCH_LT").items() if k != "nodes_values"},
          "nodes_values_as_tensor": tensor([1.0, 0, 0, 0, 0, 0.5, 0, 0], np.float64),
          **{k: v for k, v in BINARY_MIXED.items() if k != "class_weights"},
          "class_weights_as_tensor": tensor(BINARY_MIXED["class_weights"], np.float64),
          "base_values_as_tensor": tensor([0.3], np.float64), **LABELS, "post_transform": "LOGISTIC"},
         since=(3,), x=X.astype(np.float64), id="double_as_tensor"),
    integer_case({**trees("BRANCH_LT"), **MULTI, **LABELS3}, np.int64),
    integer_case({**trees("BRANCH_GT"), **BINARY_POSITIVE, **LABELS}, np.int32),
    # onnx.reference computes the same for multi-class ensembles with base values, nothing transformed
    case({**trees(), **MULTI, **LABELS3, "base_values": [0.25, -0.5, 0.125]}, x=X[:3], oracle="ref",
         id="reference_multi_base"),
]


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_oracle(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


def _readings(attrs: dict[str, Any]) -> list[str]:
    return [r.reading.id for r in infer_shapes(version(DOMAIN, OP, 1), [[6, 2]], attrs).readings]


def test_two_classes_with_votes_for_both_are_multi_class_where_onnxruntime_reads_the_class_1_score() -> None:
    """Reading treeensembleclassifier_r1: the top class by the registry, the class-1 sign (and the integers 1/0)
    by onnxruntime."""
    attrs = {**trees(), **votes([[0, 1], [0], [1], [0, 1], [1]], [0.75, 0.25, 0.5, 0.5, 0.25, 0.5, 0.125]),
             **LABELS}
    y, _ = kernel_outputs(case(attrs, (1,)), 1)
    assert y.tolist()[0] == 3  # row 0: leaf 1 (0.75, 0.25) and leaf 2 of tree 1 (class 1: 0.125): class 0 wins
    assert ort_outputs(OP, 1, X, attrs, 2)[0].tolist()[0] == 1  # class 1's 0.375 > 0: "1", not a label
    assert _readings(attrs) == ["treeensembleclassifier_r1"]


def test_a_class_1_binary_case_with_two_base_values_keeps_the_votes_where_onnxruntime_drops_them() -> None:
    """Reading treeensembleclassifier_r2."""
    attrs = {**trees(), **BINARY_CLASS_1, **LABELS, "base_values": [0.0, 0.5]}
    _, z = kernel_outputs(case(attrs, (1,)), 1)
    np.testing.assert_allclose(z[0], [0.0, 0.25 + 0.75 + 0.5])  # leaf 1 of tree 0 and leaf 2 of tree 1, + 0.5
    np.testing.assert_allclose(ort_outputs(OP, 1, X, attrs, 2)[1][0], [0.0, 0.5])
    assert _readings(attrs) == ["treeensembleclassifier_r2"]
    assert _readings({**trees(), **BINARY_MIXED, **LABELS, "base_values": [0.0, 0.5]}) == []


@pytest.mark.parametrize(("since", "attrs"), [
    pytest.param(1, {**trees(), **BINARY_MIXED, **LABELS}, id="v1-binary"),
    pytest.param(3, {**trees(), **MULTI, **LABELS3}, id="v3-multi"),
    pytest.param(3, {**trees(), **MULTI, "classlabels_strings": ["a", "b", "c"]}, id="v3-strings"),
])
def test_shape_formulas_match_onnx_and_onnxruntime(since: int, attrs: dict[str, Any]) -> None:
    assert_shapes_match(OP, since, X, attrs, 2)


def test_symbolic_batch() -> None:
    assert formula_shapes(OP, 3, ["N", 2], {**trees(), **MULTI, **LABELS3}) == [["N"], ["N", "3"]]


def _without(attrs: dict[str, Any], name: str) -> dict[str, Any]:
    return {k: v for k, v in attrs.items() if k != name}


VALID = {**trees(), **MULTI, **LABELS3}


@pytest.mark.parametrize(("since", "attrs", "check"), [
    pytest.param(1, {**VALID, "classlabels_strings": ["a", "b", "c"]}, "treeensembleclassifier_c1",
                 id="v1-both_label_kinds"),
    pytest.param(1, _without(VALID, "classlabels_int64s"), "treeensembleclassifier_c1", id="v1-no_labels"),
    pytest.param(1, {**VALID, "classlabels_int64s": [1], "class_ids": [0] * 9}, "treeensembleclassifier_c2",
                 id="v1-one_class"),
    pytest.param(1, _without(VALID, "nodes_nodeids"), "treeensembleclassifier_c3", id="v1-no_node_ids"),
    pytest.param(1, {**VALID, "nodes_missing_value_tracks_true": [0, 1]}, "treeensembleclassifier_c4",
                 id="v1-short_missing"),
    pytest.param(1, {**VALID, "class_nodeids": VALID["class_nodeids"][:-1]}, "treeensembleclassifier_c5",
                 id="v1-short_class_nodeids"),
    pytest.param(1, _without(VALID, "class_ids"), "treeensembleclassifier_c5", id="v1-no_class_ids"),
    pytest.param(1, {**VALID, "classlabels_int64s": [1, 2]}, "treeensembleclassifier_c6", id="v1-class_id_past"),
    pytest.param(1, {**VALID, "nodes_falsenodeids": [2, 0, 8, 0, 0, 2, 0, 0]}, "treeensembleclassifier_c7",
                 id="v1-child_past_the_nodes"),
    pytest.param(1, {**VALID, "nodes_featureids": [2, 0, 1, 0, 0, 1, 0, 0]}, "treeensembleclassifier_c8",
                 id="v1-feature_past_X"),
    pytest.param(1, {**VALID, "base_values": [0.0, 1.0]}, "treeensembleclassifier_c9", id="v1-base_length"),
    pytest.param(3, {**VALID, "nodes_values_as_tensor": tensor([0.0] * 8, np.float64)}, "treeensembleclassifier_c10",
                 id="v3-values_twice"),
    pytest.param(3, {**VALID, "class_weights_as_tensor": tensor([0.0] * 9, np.float64)},
                 "treeensembleclassifier_c11", id="v3-weights_twice"),
    pytest.param(3, {**VALID, "base_values": [0.0] * 3, "base_values_as_tensor": tensor([0.0] * 3, np.float64)},
                 "treeensembleclassifier_c12", id="v3-base_twice"),
    pytest.param(3, {**VALID, "nodes_hitrates": [1.0] * 8, "nodes_hitrates_as_tensor": tensor([1.0] * 8)},
                 "treeensembleclassifier_c13", id="v3-hitrates_twice"),
    pytest.param(1, {**VALID, "post_transform": "SIGMOID"}, "attr_allowed", id="v1-post_transform"),
    pytest.param(1, {**VALID, "nodes_missing_value_tracks_true": [2] * 8}, "attr_allowed", id="v1-missing_flag"),
])
def test_invalid_node_reports_the_check(since: int, attrs: dict[str, Any], check: str) -> None:
    assert check in checks(OP, since, [6, 2], attrs)


def test_a_valid_model_validates_clean() -> None:
    assert validation_errors(OP, 3, X, {**trees(), **MULTI, "classlabels_strings": ["a", "b", "c"]}, 2) == []


@pytest.mark.parametrize(("labels", "wrong"), [
    pytest.param({"classlabels_strings": ["a", "b", "c"]}, onnx.TensorProto.INT64, id="strings"),
    pytest.param(LABELS3, onnx.TensorProto.STRING, id="int64s"),
])
def test_the_label_type_follows_the_class_labels(labels: dict[str, Any], wrong: int) -> None:
    """The validator types Y from the class labels: a model declaring the other type is reported."""
    model, _ = ml_model(OP, 3, X, {**trees(), **MULTI, **labels}, 2)
    model.graph.output[0].CopyFrom(onnx.helper.make_tensor_value_info("out0", wrong, [6]))
    errors = [d for d in node_diagnostics(check_model(model).diagnostics) if d.is_error]
    assert errors and all("out0" in d.message for d in errors), [str(d) for d in errors]
