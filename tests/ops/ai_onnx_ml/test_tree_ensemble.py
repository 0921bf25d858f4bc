"""TreeEnsemble (ai.onnx.ml 5): the kernel against onnxruntime and onnx.reference (every mode, set membership, NaN
routing, aggregates, post transforms, single-leaf trees), the shape formula against onnx and onnxruntime,
rejected nodes, tensor attributes in a validated model, and the three readings onnxruntime follows."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from opset.infer import infer_shapes
from tests.helpers import (
    OracleCase,
    assert_matches_oracle,
    assert_registry_ranges_exercised,
    kernel_outputs,
    oracle_params,
    version,
)
from tests.helpers.ml_models import (
    DOMAIN,
    assert_shapes_match,
    checks,
    formula_shapes,
    ort_outputs,
    reference_outputs,
    tensor,
    validation_errors,
)

OP = "TreeEnsemble"
NAN = float("nan")
X = np.array([[1.0, 0.0, 3.0], [1.0, 1.0, 2.0], [0.5, -1.0, 7.0], [2.0, NAN, 3.0], [NAN, 0.5, NAN]],
             dtype=np.float32)
LEQ, LT, GTE, GT, EQ, NEQ, MEMBER = range(7)


def forest(mode: int = LEQ, *, dtype: Any = np.float32, members: list[float] | None = None,
           missing: list[int] | None = None, targets: int = 2, aggregate: int = 1, post: int = 0) -> dict[str, Any]:
    """Tree A (root node 2): feature 0 `mode` 1.0 -> leaf 0 | node 0 (feature 1 BRANCH_LT 0.0) -> leaves 3 | 1.
    Tree B (root node 1): feature 2 BRANCH_MEMBER {3, 7} (or `members`) -> leaf 2 | leaf 4.
    Nodes and leaves are listed out of tree order on purpose."""
    attrs: dict[str, Any] = dict(
        nodes_featureids=[1, 2, 0], nodes_modes=tensor([LT, MEMBER, mode], np.uint8),
        nodes_splits=tensor([0.0, 0.0, 1.0], dtype), nodes_truenodeids=[3, 2, 0], nodes_falsenodeids=[1, 4, 0],
        nodes_trueleafs=[1, 1, 1], nodes_falseleafs=[1, 1, 0],
        membership_values=tensor([*(members if members is not None else [3.0, 7.0]), NAN], dtype),
        tree_roots=[2, 1], leaf_targetids=[min(t, targets - 1) for t in (0, 1, 1, 0, 2)],
        leaf_weights=tensor([0.25, -0.5, 1.0, 0.125, 0.375], dtype), n_targets=targets,
        aggregate_function=aggregate, post_transform=post)
    if missing is not None:
        attrs["nodes_missing_value_tracks_true"] = missing
    return attrs


def case(attrs: dict[str, Any], x: np.ndarray = X, oracle: str = "ort", id: str = "") -> OracleCase:
    return OracleCase(OP, attrs, [x], (5,), oracle=oracle, rtol=1e-5, id=id, domain=DOMAIN)


CASES = [
    *[case(forest(m, missing=[0, 1, 0]), id=f"mode_{m}") for m in (LEQ, LT, GTE, GT, EQ, NEQ)],
    case(forest(missing=[1, 1, 1]), id="missing_tracks"),
    *[case(forest(GTE, aggregate=a), id=f"aggregate_{a}") for a in range(4)],
    *[case(forest(post=p, targets=3), id=f"post_{p}") for p in (0, 3)],
    case(forest(targets=1, post=4, aggregate=0), id="one_target_probit"),
    case(forest(targets=1, post=2), id="one_target_logistic_unchanged"),
    case(forest(EQ, dtype=np.float64), x=X.astype(np.float64), id="double"),
    # a tree that is a single leaf: node 0 with both branches to leaf 0 (where every reading agrees)
    case({**forest(), "nodes_truenodeids": [0, 2, 0], "nodes_falsenodeids": [0, 4, 0], "tree_roots": [0, 1, 2]},
         id="single_leaf_tree"),
    # onnx.reference: members that are not integers (onnxruntime refuses them), features between them
    case(forest(members=[0.5, 7.0]), x=np.array([[1.0, 0.0, 0.5], [0.0, 1.0, 0.25], [2.0, 2.0, 7.0]], np.float32),
         oracle="ref", id="reference_fractional_members"),
    case(forest(NEQ, aggregate=3, targets=1), oracle="ref", id="reference_max"),
]


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_oracle(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


def test_half_precision() -> None:
    """onnxruntime has no float16 TreeEnsemble: float16 gives the float results, rounded."""
    attrs16, attrs32 = forest(GT, dtype=np.float16), forest(GT)
    got = kernel_outputs(case(attrs16, X.astype(np.float16)), 5)[0]
    assert got.dtype == np.float16
    np.testing.assert_allclose(got, ort_outputs(OP, 5, X, attrs32, 1)[0], rtol=1e-3)


def _readings(attrs: dict[str, Any], x: np.ndarray = X) -> list[str]:
    plain = {k: kernel_attr(v) for k, v in attrs.items()}
    result = infer_shapes(version(DOMAIN, OP, 5), [list(x.shape)], plain, {"X": x.reshape(-1).tolist()},
                          all_values_known=True)
    return [r.reading.id for r in result.readings]


def kernel_attr(value: Any) -> Any:
    from onnx import TensorProto, numpy_helper

    return numpy_helper.to_array(value) if isinstance(value, TensorProto) else value


def test_post_transform_1_is_softmax_where_onnxruntime_reads_logistic() -> None:
    """Reading treeensemble_r1: onnxruntime's enum order differs from the spec's."""
    attrs = forest(targets=3, post=1)
    ours = kernel_outputs(case(attrs), 5)[0]
    np.testing.assert_allclose(ours.sum(axis=1), 1.0, rtol=1e-6)  # a softmax
    np.testing.assert_allclose(ort_outputs(OP, 5, X, attrs, 1)[0],
                               kernel_outputs(case(forest(targets=3, post=2)), 5)[0], rtol=1e-5)
    assert _readings(attrs, X.round()) == ["treeensemble_r1"]


def test_a_single_leaf_tree_is_the_leaf_its_branches_name_where_onnx_reference_takes_the_roots_index() -> None:
    """Reading treeensemble_r2: root node 2 names leaf 0, as onnxruntime reads it; onnx.reference takes leaf 2."""
    attrs = {**forest(targets=1), "nodes_truenodeids": [3, 2, 0], "nodes_falsenodeids": [1, 4, 0],
             "nodes_trueleafs": [1, 1, 1], "nodes_falseleafs": [1, 1, 1], "tree_roots": [2]}
    np.testing.assert_allclose(kernel_outputs(case(attrs), 5)[0], np.full((5, 1), 0.25))
    np.testing.assert_allclose(ort_outputs(OP, 5, X, attrs, 1)[0], np.full((5, 1), 0.25))
    np.testing.assert_allclose(reference_outputs(OP, 5, X, attrs, 1)[0], np.full((5, 1), 1.0))
    assert _readings(attrs, X.round()) == ["treeensemble_r2"]


def test_set_membership_tests_the_value_where_onnxruntime_truncates_it() -> None:
    """Reading treeensemble_r3: -1.5 is no member of {-1, 40}; onnxruntime, whose set has a member outside [0, 30],
    truncates it to -1. Sets inside [0, 30] it tests exactly."""
    x = np.array([[0.0, 0.0, -1.5], [0.0, 0.0, 7.5]], dtype=np.float32)
    big, small = forest(targets=1, members=[-1.0, 40.0]), forest(targets=1)
    np.testing.assert_allclose(kernel_outputs(case(big, x), 5)[0], [[0.25 + 0.375], [0.25 + 0.375]])
    np.testing.assert_allclose(ort_outputs(OP, 5, x, big, 1)[0], [[0.25 + 1.0], [0.25 + 0.375]])
    np.testing.assert_allclose(ort_outputs(OP, 5, x, small, 1)[0], kernel_outputs(case(small, x), 5)[0])
    assert _readings(big, x) == ["treeensemble_r3"]
    assert _readings(big, x.round()) == _readings(small, x) == []


@pytest.mark.parametrize(("attrs", "x"), [
    pytest.param(forest(), X, id="two_targets"),
    pytest.param(forest(targets=1, dtype=np.float64), X.astype(np.float64), id="double_one_target"),
])
def test_shape_formula_matches_onnx_and_onnxruntime(attrs: dict[str, Any], x: np.ndarray) -> None:
    assert_shapes_match(OP, 5, x, attrs, 1)


def test_symbolic_batch() -> None:
    assert formula_shapes(OP, 5, ["N", 3], forest(targets=3)) == [["N", "3"]]


VALID = forest()


@pytest.mark.parametrize(("attrs", "check"), [
    pytest.param({k: v for k, v in VALID.items() if k != "n_targets"}, "treeensemble_c1", id="no_n_targets"),
    pytest.param({**VALID, "nodes_trueleafs": [1, 1]}, "treeensemble_c2", id="short_trueleafs"),
    pytest.param({**VALID, "nodes_splits": tensor([0.0])}, "treeensemble_c2", id="short_splits"),
    pytest.param({**VALID, "nodes_missing_value_tracks_true": [0]}, "treeensemble_c3", id="short_missing"),
    pytest.param({**VALID, "leaf_weights": tensor([1.0])}, "treeensemble_c4", id="short_weights"),
    pytest.param({**VALID, "nodes_modes": tensor([LT, 9, LEQ], np.uint8)}, "treeensemble_c5", id="unknown_mode"),
    pytest.param({**VALID, "tree_roots": [3]}, "treeensemble_c6", id="root_past_the_nodes"),
    pytest.param({**VALID, "nodes_truenodeids": [5, 2, 0]}, "treeensemble_c7", id="leaf_past_the_leaves"),
    pytest.param({**VALID, "nodes_falsenodeids": [1, 4, 3]}, "treeensemble_c7", id="node_past_the_nodes"),
    pytest.param({**VALID, "nodes_featureids": [1, 3, 0]}, "treeensemble_c8", id="feature_past_X"),
    pytest.param({**VALID, "n_targets": 1}, "treeensemble_c9", id="target_past_n_targets"),
    pytest.param({**VALID, "membership_values": tensor([3.0, 7.0])}, "treeensemble_c10", id="unterminated_set"),
    pytest.param({**VALID, "membership_values": tensor([NAN, 3.0, NAN])}, "treeensemble_c11", id="empty_set"),
    pytest.param({**VALID, "aggregate_function": 4}, "attr_allowed", id="aggregate"),
    pytest.param({**VALID, "post_transform": 5}, "attr_allowed", id="post_transform"),
])
def test_invalid_node_reports_the_check(attrs: dict[str, Any], check: str) -> None:
    assert check in checks(OP, 5, [5, 3], attrs)


def test_tensor_attributes_validate_in_a_model() -> None:
    """A model holds nodes_splits, leaf_weights and membership_values as TensorProtos: the constraints read them."""
    assert validation_errors(OP, 5, X, VALID, 1) == []
    errors = validation_errors(OP, 5, X, {**VALID, "membership_values": tensor([3.0, 7.0])}, 1)
    assert [e.split(":")[0] for e in errors] == ["treeensemble_c10"]
