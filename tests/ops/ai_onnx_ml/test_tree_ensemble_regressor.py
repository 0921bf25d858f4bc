"""TreeEnsembleRegressor: the kernel against onnxruntime (and onnx.reference where it computes the same), every
node mode at equality, NaN routing, aggregates, post transforms, the shape formula against onnx and onnxruntime,
rejected nodes, and the two readings onnxruntime follows."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from opset.infer import infer_shapes
from tests.helpers import OracleCase, assert_matches_oracle, assert_registry_ranges_exercised, oracle_params, version
from tests.helpers.ml_models import (
    DOMAIN,
    assert_shapes_match,
    checks,
    formula_shapes,
    ort_outputs,
    tensor,
    validation_errors,
)

OP = "TreeEnsembleRegressor"
MODES = ["BRANCH_LEQ", "BRANCH_LT", "BRANCH_GTE", "BRANCH_GT", "BRANCH_EQ", "BRANCH_NEQ"]
NAN = float("nan")
# rows meet the first split (feature 0 at 1.0) with equality, below, above, and as NaN
X = np.array([[1.0, 0.0], [1.0, 1.0], [0.5, -1.0], [2.0, NAN], [NAN, 0.5]], dtype=np.float32)


def trees(mode: str = "BRANCH_LEQ", *, second: str = "BRANCH_LT", missing: list[int] | None = None) -> dict[str, Any]:
    """Tree 0: node 0 (feature 0 `mode` 1.0) -> leaf 1 | node 2 (feature 1 `second` 0.0) -> leaves 3 | 4.
    Tree 1: node 0 (feature 1 BRANCH_GTE 0.5) -> leaves 1 | 2."""
    attrs: dict[str, Any] = dict(
        nodes_treeids=[0, 0, 0, 0, 0, 1, 1, 1], nodes_nodeids=[0, 1, 2, 3, 4, 0, 1, 2],
        nodes_featureids=[0, 0, 1, 0, 0, 1, 0, 0],
        nodes_modes=[mode, "LEAF", second, "LEAF", "LEAF", "BRANCH_GTE", "LEAF", "LEAF"],
        nodes_values=[1.0, 0.0, 0.0, 0.0, 0.0, 0.5, 0.0, 0.0],
        nodes_truenodeids=[1, 0, 3, 0, 0, 1, 0, 0], nodes_falsenodeids=[2, 0, 4, 0, 0, 2, 0, 0])
    if missing is not None:
        attrs["nodes_missing_value_tracks_true"] = missing
    return attrs


def votes(targets: int, weights: list[float] | None = None) -> dict[str, Any]:
    """Every leaf (tree 0: 1, 3, 4; tree 1: 1, 2) votes for every target."""
    leaves = [(0, 1), (0, 3), (0, 4), (1, 1), (1, 2)]
    pairs = [(t, n, k) for t, n in leaves for k in range(targets)]
    w = weights if weights is not None else [0.125 * (i + 1) * (-1) ** i for i in range(len(pairs))]
    return dict(target_treeids=[t for t, _, _ in pairs], target_nodeids=[n for _, n, _ in pairs],
                target_ids=[k for _, _, k in pairs], target_weights=w, n_targets=targets)


def case(attrs: dict[str, Any], since: tuple[int, ...] = (1, 3), x: np.ndarray = X, oracle: str = "ort",
         id: str = "") -> OracleCase:
    return OracleCase(OP, attrs, [x], since, oracle=oracle, rtol=1e-5, id=id, domain=DOMAIN)


def integer_case(mode: str, dtype: type[np.integer[Any]]) -> OracleCase:
    """onnxruntime has no integer TreeEnsembleRegressor: its float kernel on the same values is the oracle
    (integers compare as floats)."""
    attrs = {**trees(mode), **votes(2)}
    x = np.array([[1, 0], [2, -1], [0, 3]], dtype=dtype)
    return OracleCase(OP, attrs, [x], (1, 3), oracle=lambda: ort_outputs(OP, 1, x.astype(np.float32), attrs, 1),
                      rtol=1e-5, id=f"{np.dtype(dtype).name}_{mode}", domain=DOMAIN)


CASES = [
    *[case({**trees(m, missing=[1, 0, 0, 0, 0, 0, 0, 0]), **votes(1)}, id=f"mode_{m}") for m in MODES],
    *[case({**trees(second=m), **votes(1)}, id=f"second_{m}") for m in MODES],
    case({**trees(missing=[0, 0, 1, 0, 0, 1, 0, 0]), **votes(1)}, id="missing_tracks"),
    *[case({**trees("BRANCH_GT"), **votes(2), "aggregate_function": a, "base_values": [0.5, -1.0]}, id=f"agg_{a}")
      for a in ("AVERAGE", "SUM", "MIN", "MAX")],
    *[case({**trees(), **votes(3), "post_transform": p}, id=f"post_{p}")
      for p in ("SOFTMAX", "LOGISTIC", "SOFTMAX_ZERO")],
    case({**trees(), **votes(2, [0.25, 0.375, 0.125, 0.5, 0.0, 0.25, 0.375, 0.125, 0.25, 0.125]),
          "post_transform": "PROBIT"}, id="post_PROBIT"),
    case({**trees(), **votes(1), "post_transform": "PROBIT", "base_values": [0.25]}, id="one_target_probit"),
    case({**trees(), **votes(1), "post_transform": "LOGISTIC"}, id="one_target_logistic_unchanged"),
    *[integer_case(mode, dtype) for mode, dtype in (("BRANCH_LT", np.int64), ("BRANCH_GTE", np.int32))],
    case({**trees("BRANCH_EQ"), **votes(2)}, x=X.astype(np.float64), id="double"),
    case({**{k: v for k, v in trees("BRANCH_LT").items() if k != "nodes_values"},
          "nodes_values_as_tensor": tensor([1.0, 0, 0, 0, 0, 0.5, 0, 0], np.float64),
          **{k: v for k, v in votes(2).items() if k != "target_weights"},
          "target_weights_as_tensor": tensor([0.1 * i for i in range(10)], np.float64),
          "base_values_as_tensor": tensor([0.3, -0.7], np.float64)},
         since=(3,), x=X.astype(np.float64), id="double_as_tensor"),
    # onnx.reference computes the same where no NaN meets BRANCH_NEQ and nothing is transformed
    case({**trees("BRANCH_LEQ"), **votes(2), "base_values": [1.0, 2.0], "aggregate_function": "AVERAGE"},
         x=X[:3], oracle="ref", id="reference_average"),
]


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_oracle(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


def test_one_target_sums_every_weight_of_a_leaf_where_onnxruntime_takes_the_first() -> None:
    """Reading treeensembleregressor_r1: a leaf voting twice for the one target."""
    attrs = {**trees(), **votes(1)}
    attrs["target_treeids"] = [*attrs["target_treeids"], 0]
    attrs["target_nodeids"] = [*attrs["target_nodeids"], 1]
    attrs["target_ids"] = [*attrs["target_ids"], 0]
    attrs["target_weights"] = [*attrs["target_weights"], 4.0]
    x = X[:1]  # reaches leaf 1 of tree 0 (weights 0.125 and 4.0) and leaf 2 of tree 1 (0.625)
    ours = case(attrs, (1,), x)
    from tests.helpers import kernel_outputs

    np.testing.assert_allclose(kernel_outputs(ours, 1)[0], [[0.125 + 4.0 + 0.625]])
    np.testing.assert_allclose(ort_outputs(OP, 1, x, attrs, 1)[0], [[0.125 + 0.625]])
    result = infer_shapes(version(DOMAIN, OP, 1), [[1, 2]], attrs)
    assert [r.reading.id for r in result.readings] == ["treeensembleregressor_r1"]


def test_a_target_no_leaf_votes_for_keeps_its_base_value_where_onnxruntime_writes_zero() -> None:
    """Reading treeensembleregressor_r2: target 1 has no votes at all."""
    attrs = {**trees(), **votes(1), "n_targets": 2, "base_values": [0.5, 3.0]}
    from tests.helpers import kernel_outputs

    got = kernel_outputs(case(attrs, (1,), X[:1]), 1)[0]
    np.testing.assert_allclose(got[:, 1], [3.0])
    np.testing.assert_allclose(ort_outputs(OP, 1, X[:1], attrs, 1)[0][:, 1], [0.0])
    result = infer_shapes(version(DOMAIN, OP, 1), [[1, 2]], attrs)
    assert [r.reading.id for r in result.readings] == ["treeensembleregressor_r2"]


@pytest.mark.parametrize(("since", "attrs", "x"), [
    pytest.param(1, {**trees(), **votes(1)}, X, id="v1-one_target"),
    pytest.param(3, {**trees(), **votes(3)}, X[:2], id="v3-three_targets"),
    pytest.param(3, {**trees(), **votes(2)}, X.astype(np.float64), id="v3-double"),
])
def test_shape_formula_matches_onnx_and_onnxruntime(since: int, attrs: dict[str, Any], x: np.ndarray) -> None:
    assert_shapes_match(OP, since, x, attrs, 1)


def test_symbolic_batch() -> None:
    assert formula_shapes(OP, 3, ["N", 2], {**trees(), **votes(2)}) == [["N", "2"]]


def _without(attrs: dict[str, Any], name: str) -> dict[str, Any]:
    return {k: v for k, v in attrs.items() if k != name}


VALID = {**trees(), **votes(2)}


@pytest.mark.parametrize(("since", "attrs", "check"), [
    pytest.param(1, _without(VALID, "n_targets"), "treeensembleregressor_c1", id="v1-no_n_targets"),
    pytest.param(1, _without(VALID, "nodes_values"), "treeensembleregressor_c2", id="v1-no_nodes_values"),
    pytest.param(1, {**VALID, "nodes_featureids": [0, 0, 1]}, "treeensembleregressor_c2", id="v1-short_features"),
    pytest.param(1, {**VALID, "nodes_hitrates": [1.0]}, "treeensembleregressor_c3", id="v1-short_hitrates"),
    pytest.param(1, {**VALID, "target_ids": VALID["target_ids"][:-1]}, "treeensembleregressor_c4",
                 id="v1-short_target_ids"),
    pytest.param(1, {**VALID, "n_targets": 1}, "treeensembleregressor_c5", id="v1-target_id_past_n_targets"),
    pytest.param(1, {**VALID, "nodes_truenodeids": [9, 0, 3, 0, 0, 1, 0, 0]}, "treeensembleregressor_c6",
                 id="v1-child_past_the_nodes"),
    pytest.param(1, {**VALID, "nodes_featureids": [0, 0, 2, 0, 0, 1, 0, 0]}, "treeensembleregressor_c7",
                 id="v1-feature_past_X"),
    pytest.param(1, {**VALID, "base_values": [1.0]}, "treeensembleregressor_c8", id="v1-base_values_length"),
    pytest.param(3, {**VALID, "nodes_values_as_tensor": tensor([0.0] * 8, np.float64)}, "treeensembleregressor_c9",
                 id="v3-values_twice"),
    pytest.param(3, {**VALID, "target_weights_as_tensor": tensor([0.0] * 10, np.float64)},
                 "treeensembleregressor_c10", id="v3-weights_twice"),
    pytest.param(3, {**VALID, "base_values": [0.0, 0.0], "base_values_as_tensor": tensor([0.0, 0.0], np.float64)},
                 "treeensembleregressor_c11", id="v3-base_twice"),
    pytest.param(3, {**VALID, "nodes_hitrates": [1.0] * 8, "nodes_hitrates_as_tensor": tensor([1.0] * 8)},
                 "treeensembleregressor_c12", id="v3-hitrates_twice"),
    pytest.param(1, {**VALID, "aggregate_function": "MEDIAN"}, "attr_allowed", id="v1-aggregate"),
    pytest.param(1, {**VALID, "nodes_modes": ["BRANCH_LE", *VALID["nodes_modes"][1:]]}, "attr_allowed",
                 id="v1-mode"),
])
def test_invalid_node_reports_the_check(since: int, attrs: dict[str, Any], check: str) -> None:
    assert check in checks(OP, since, [5, 2], attrs)


def test_a_valid_model_validates_clean_with_tensor_attributes() -> None:
    attrs = dict(VALID)
    attrs["nodes_values_as_tensor"] = tensor(attrs.pop("nodes_values"), np.float64)
    assert validation_errors(OP, 3, X.astype(np.float64), attrs, 1) == []
    attrs["nodes_values"] = [0.0] * 8
    assert any(e.startswith("treeensembleregressor_c9") for e in validation_errors(OP, 3, X, attrs, 1))
