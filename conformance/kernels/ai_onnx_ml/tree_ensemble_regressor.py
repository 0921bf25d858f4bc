"""TreeEnsembleRegressor: per row, the leaves reached in every tree vote weights per target; the votes are
aggregated (SUM, AVERAGE, MIN, MAX), base_values added, then post_transform applied across the targets.

As onnxruntime computes it: a target no reached leaf votes for aggregates to 0 (MIN and MAX included); with a
single target only PROBIT transforms the score. Every weight of a leaf counts (onnxruntime takes only a leaf's
first weight when there is one target: reading treeensembleregressor_r1). Version 3 adds the `*_as_tensor`
twins of the float attributes (double precision), at most one of each pair given.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance.kernels.ai_onnx_ml._scores import first_given, floats, single_score, transform_rows, two_dims
from conformance.kernels.ai_onnx_ml._trees import IdForest, aggregate
from conformance.kernels.registry import kernel

OP = "TreeEnsembleRegressor"


def regress(x: np.ndarray, *, aggregate_function: str, base: np.ndarray | None, n_targets: int | None,
            nodes_falsenodeids: list[int] | None, nodes_featureids: list[int] | None,
            nodes_missing_value_tracks_true: list[int] | None, nodes_modes: list[str] | None,
            nodes_nodeids: list[int] | None, nodes_treeids: list[int] | None, nodes_truenodeids: list[int] | None,
            values: np.ndarray | None, post_transform: str, target_ids: list[int] | None,
            target_nodeids: list[int] | None, target_treeids: list[int] | None,
            weights: np.ndarray | None) -> np.ndarray:
    """The regression scores [N, n_targets] in double precision (shared with TreeEnsemble)."""
    x = two_dims(OP, x)
    if n_targets is None or n_targets < 1:
        raise ValueError(f"{OP}: n_targets must be given and at least 1, got {n_targets}")
    if nodes_treeids is None or values is None:
        raise ValueError(f"{OP}: the nodes_* attributes (and nodes_values) must be given")
    forest = IdForest.build(OP, x, list(nodes_treeids), list(nodes_nodeids or []), list(nodes_featureids or []),
                            list(nodes_modes or []), values, list(nodes_truenodeids or []),
                            list(nodes_falsenodeids or []), nodes_missing_value_tracks_true)
    votes = forest.weights(OP, n_targets, list(target_treeids or []), list(target_nodeids or []),
                           list(target_ids or []), weights if weights is not None else np.zeros(0))
    score, _ = aggregate(votes, forest.forest.leaves(x), aggregate_function)
    return finish(score, base, n_targets, post_transform)


def finish(score: np.ndarray, base: np.ndarray | None, n_targets: int, post_transform: str) -> np.ndarray:
    """base_values added (when given: one per target), then post_transform (one target: PROBIT only)."""
    if base is not None and base.size:
        if base.size != n_targets:
            raise ValueError(f"{OP}: base_values has {base.size} values for {n_targets} targets")
        score = score + base[None, :]
    return single_score(score, post_transform) if n_targets == 1 else transform_rows(score, post_transform)


@kernel("ai.onnx.ml", OP, since=1, until=2)
def tree_ensemble_regressor_1(X: np.ndarray, *, aggregate_function: str, base_values: list[float] | None,
                              n_targets: int | None, nodes_falsenodeids: list[int] | None,
                              nodes_featureids: list[int] | None, nodes_hitrates: list[float] | None,
                              nodes_missing_value_tracks_true: list[int] | None, nodes_modes: list[str] | None,
                              nodes_nodeids: list[int] | None, nodes_treeids: list[int] | None,
                              nodes_truenodeids: list[int] | None, nodes_values: list[float] | None,
                              post_transform: str, target_ids: list[int] | None, target_nodeids: list[int] | None,
                              target_treeids: list[int] | None, target_weights: list[float] | None
                              ) -> tuple[np.ndarray, ...]:
    del nodes_hitrates  # a performance hint
    y = regress(X, aggregate_function=aggregate_function, base=floats(base_values), n_targets=n_targets,
                nodes_falsenodeids=nodes_falsenodeids, nodes_featureids=nodes_featureids,
                nodes_missing_value_tracks_true=nodes_missing_value_tracks_true, nodes_modes=nodes_modes,
                nodes_nodeids=nodes_nodeids, nodes_treeids=nodes_treeids, nodes_truenodeids=nodes_truenodeids,
                values=floats(nodes_values), post_transform=post_transform, target_ids=target_ids,
                target_nodeids=target_nodeids, target_treeids=target_treeids, weights=floats(target_weights))
    return (y.astype(np.float32),)


@kernel("ai.onnx.ml", OP, since=3)
def tree_ensemble_regressor_3(X: np.ndarray, *, aggregate_function: str, base_values: list[float] | None,
                              base_values_as_tensor: Any, n_targets: int | None,
                              nodes_falsenodeids: list[int] | None, nodes_featureids: list[int] | None,
                              nodes_hitrates: list[float] | None, nodes_hitrates_as_tensor: Any,
                              nodes_missing_value_tracks_true: list[int] | None, nodes_modes: list[str] | None,
                              nodes_nodeids: list[int] | None, nodes_treeids: list[int] | None,
                              nodes_truenodeids: list[int] | None, nodes_values: list[float] | None,
                              nodes_values_as_tensor: Any, post_transform: str, target_ids: list[int] | None,
                              target_nodeids: list[int] | None, target_treeids: list[int] | None,
                              target_weights: list[float] | None, target_weights_as_tensor: Any
                              ) -> tuple[np.ndarray, ...]:
    first_given(OP, ("nodes_hitrates", nodes_hitrates), ("nodes_hitrates_as_tensor", nodes_hitrates_as_tensor))
    y = regress(X, aggregate_function=aggregate_function,
                base=first_given(OP, ("base_values", base_values), ("base_values_as_tensor", base_values_as_tensor)),
                n_targets=n_targets, nodes_falsenodeids=nodes_falsenodeids, nodes_featureids=nodes_featureids,
                nodes_missing_value_tracks_true=nodes_missing_value_tracks_true, nodes_modes=nodes_modes,
                nodes_nodeids=nodes_nodeids, nodes_treeids=nodes_treeids, nodes_truenodeids=nodes_truenodeids,
                values=first_given(OP, ("nodes_values", nodes_values), ("nodes_values_as_tensor",
                                                                         nodes_values_as_tensor)),
                post_transform=post_transform, target_ids=target_ids, target_nodeids=target_nodeids,
                target_treeids=target_treeids,
                weights=first_given(OP, ("target_weights", target_weights),
                                    ("target_weights_as_tensor", target_weights_as_tensor)))
    return (y.astype(np.float32),)
