"""TreeEnsemble (ai.onnx.ml 5): interior nodes `nodes_*` and leaves `leaf_*`; each tree starts at a node of
`tree_roots`; a node's branches lead to a node or, where `nodes_trueleafs`/`nodes_falseleafs` say so, to a leaf.
BRANCH_MEMBER (6) tests the feature against the node's set, the NaN-delimited run of `membership_values` in the
order such nodes appear. A tree whose root has both branches leading to one leaf is that leaf.

Per row the reached leaves' weights are aggregated per target (AVERAGE 0, SUM 1, MIN 2, MAX 3; a target no leaf
reached is 0), then post_transform applies across the targets (NONE 0, SOFTMAX 1, LOGISTIC 2, SOFTMAX_ZERO 3,
PROBIT 4; with one target only PROBIT changes the score). Y has X's element type.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance.kernels.ai_onnx_ml._scores import POST_TRANSFORMS, as_array, single_score, transform_rows, two_dims
from conformance.kernels.ai_onnx_ml._trees import AGGREGATES, MEMBER, Forest, LeafWeights, aggregate, compare_dtype
from conformance.kernels.registry import kernel

OP = "TreeEnsemble"


def _member_sets(modes: np.ndarray, membership: np.ndarray | None) -> np.ndarray:
    """[nodes, width]: each BRANCH_MEMBER node's set (NaN-padded), from the NaN-delimited membership_values."""
    member_nodes = np.flatnonzero(modes == MEMBER)
    if member_nodes.size == 0:
        return np.full((modes.size, 1), np.nan)
    if membership is None:
        raise ValueError(f"{OP}: BRANCH_MEMBER nodes need membership_values")
    runs: list[np.ndarray] = []
    start = 0
    for stop in np.flatnonzero(np.isnan(membership)).tolist():
        runs.append(membership[start:stop])
        start = stop + 1
    if start < membership.size:
        runs.append(membership[start:])
    if len(runs) != member_nodes.size:
        raise ValueError(f"{OP}: membership_values holds {len(runs)} sets for {member_nodes.size} BRANCH_MEMBER nodes")
    if any(run.size == 0 for run in runs):
        raise ValueError(f"{OP}: a BRANCH_MEMBER node has an empty set")
    sets = np.full((modes.size, max(run.size for run in runs)), np.nan)
    for node, run in zip(member_nodes, runs, strict=True):
        sets[node, :run.size] = run
    return sets


def build_forest(x: np.ndarray, *, featureids: list[int], splits: np.ndarray, modes: np.ndarray,
                 truenodeids: list[int], falsenodeids: list[int], trueleafs: list[int], falseleafs: list[int],
                 missing: list[int] | None, membership: np.ndarray | None, roots: list[int], leaves: int) -> Forest:
    n = modes.size
    lengths = {"nodes_featureids": len(featureids), "nodes_splits": splits.size, "nodes_truenodeids": len(truenodeids),
               "nodes_falsenodeids": len(falsenodeids), "nodes_trueleafs": len(trueleafs),
               "nodes_falseleafs": len(falseleafs)}
    if missing is not None:
        lengths["nodes_missing_value_tracks_true"] = len(missing)
    wrong = {k: v for k, v in lengths.items() if v != n}
    if wrong:
        raise ValueError(f"{OP}: nodes_modes has {n} entries but {wrong}")
    if n and (modes.min() < 0 or modes.max() > MEMBER):
        raise ValueError(f"{OP}: node modes must lie in [0, 6], got {sorted(set(modes.tolist()))}")
    true_leaf, false_leaf = np.asarray(trueleafs, dtype=np.int64) != 0, np.asarray(falseleafs, dtype=np.int64) != 0
    true_next, false_next = np.asarray(truenodeids, dtype=np.int64), np.asarray(falsenodeids, dtype=np.int64)
    for name, nxt, leaf in (("true", true_next, true_leaf), ("false", false_next, false_leaf)):
        bound = np.where(leaf, leaves, n)
        if ((nxt < 0) | (nxt >= bound)).any():
            raise ValueError(f"{OP}: a {name} branch points past the {'leaves' if leaf.any() else 'nodes'}")
    root = np.asarray(roots, dtype=np.int64)
    if root.size == 0 or root.min() < 0 or root.max() >= n:
        raise ValueError(f"{OP}: tree_roots must name nodes in [0, {n}), got {roots}")
    root_leaf = true_leaf[root] & false_leaf[root] & (true_next[root] == false_next[root])
    dtype = compare_dtype(x)
    return Forest(OP, np.asarray(featureids, dtype=np.int64), splits.astype(dtype), modes.astype(np.int64),
                  true_next, false_next, true_leaf, false_leaf,
                  np.asarray(missing if missing is not None else np.zeros(n), dtype=np.int64) == 1,
                  _member_sets(modes, membership).astype(dtype), np.where(root_leaf, true_next[root], root), root_leaf)


@kernel("ai.onnx.ml", OP, since=5)
def tree_ensemble(X: np.ndarray, *, aggregate_function: int, leaf_targetids: list[int], leaf_weights: Any,
                  membership_values: Any, n_targets: int | None, nodes_falseleafs: list[int],
                  nodes_falsenodeids: list[int], nodes_featureids: list[int], nodes_hitrates: Any,
                  nodes_missing_value_tracks_true: list[int] | None, nodes_modes: Any, nodes_splits: Any,
                  nodes_trueleafs: list[int], nodes_truenodeids: list[int], post_transform: int,
                  tree_roots: list[int]) -> tuple[np.ndarray, ...]:
    del nodes_hitrates  # a performance hint
    x = two_dims(OP, X)
    if n_targets is None or n_targets < 1:
        raise ValueError(f"{OP}: n_targets must be given and at least 1, got {n_targets}")
    if not 0 <= aggregate_function < len(AGGREGATES) or not 0 <= post_transform < len(POST_TRANSFORMS):
        raise ValueError(f"{OP}: aggregate_function {aggregate_function} or post_transform {post_transform} unknown")
    weights = as_array(leaf_weights, np.float64)
    modes, splits = as_array(nodes_modes, np.int64), as_array(nodes_splits, np.float64)
    assert weights is not None and modes is not None and splits is not None  # required attributes
    if len(leaf_targetids) != weights.size:
        raise ValueError(f"{OP}: {len(leaf_targetids)} leaf_targetids for {weights.size} leaf_weights")
    forest = build_forest(x, featureids=list(nodes_featureids), splits=splits, modes=modes,
                          truenodeids=list(nodes_truenodeids), falsenodeids=list(nodes_falsenodeids),
                          trueleafs=list(nodes_trueleafs), falseleafs=list(nodes_falseleafs),
                          missing=nodes_missing_value_tracks_true, membership=as_array(membership_values, np.float64),
                          roots=list(tree_roots), leaves=weights.size)
    votes = LeafWeights.build(OP, weights.size, n_targets, np.arange(weights.size),
                              np.asarray(leaf_targetids, dtype=np.int64), weights)
    score, _ = aggregate(votes, forest.leaves(x), AGGREGATES[aggregate_function])
    transform = POST_TRANSFORMS[post_transform]
    y = single_score(score, transform) if n_targets == 1 else transform_rows(score, transform)
    return (y.astype(X.dtype),)
