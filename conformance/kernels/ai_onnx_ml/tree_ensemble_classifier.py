"""TreeEnsembleClassifier: per row, the leaves reached in every tree vote weights per class; the votes are summed,
base_values added, post_transform applied, and Y is the top class's label.

Two classes whose weights all name one class (the binary case: what skl2onnx, onnxmltools and hummingbird write
for binary models) follow onnxruntime's rules. The summed weight w is the positive class's score, plus
base_values[0] when there is one base value; Z is [1 - w, w] (all weights >= 0) or [-w, w], whatever the
post_transform but LOGISTIC ([logistic(-w), logistic(w)]); the label is the positive one when w > 0.5 (all
weights >= 0) or w > 0. Every other ensemble is a multi-class one: class k scores the sum of its weights plus
base_values[k] (a class nothing scored is 0, and is no candidate for the label unless base_values give it a
score), post_transform applies across the classes, and the label is the first class of highest raw score.
Where onnxruntime computes otherwise (two classes with weights on both, a class-1 binary case with two base
values), the YAML records its reading.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance.kernels.ai_onnx_ml._scores import (
    binary_pair,
    class_labels,
    first_given,
    floats,
    labels_array,
    transform_rows,
    two_dims,
)
from conformance.kernels.ai_onnx_ml._trees import IdForest, aggregate
from conformance.kernels.registry import kernel

OP = "TreeEnsembleClassifier"


def classify(labels: list[Any], score: np.ndarray, has: np.ndarray, class_ids: np.ndarray, weights: np.ndarray,
             base: np.ndarray | None, post_transform: str) -> tuple[np.ndarray, np.ndarray]:
    """(Y, Z) from the per-class sums `score` and whether any reached leaf voted for each class (`has`)."""
    n_classes = len(labels)
    base = base if base is not None else np.zeros(0)
    if n_classes < 2:
        raise ValueError(f"{OP}: there must be at least two classes, there are {n_classes}")
    if base.size not in ((0, 1, 2) if n_classes == 2 else (0, n_classes)):
        raise ValueError(f"{OP}: base_values has {base.size} values for {n_classes} classes")
    distinct = np.unique(class_ids)
    if n_classes == 2 and distinct.size == 1:
        return _binary(labels, score[:, int(distinct[0])], has[:, int(distinct[0])], int(distinct[0]),
                       bool((weights >= 0).all()), base, post_transform)
    values = np.where(has, score, 0.0)
    scored = has.copy()
    if base.size:
        values[:, :base.size] += base[None, :]
        scored[:, :base.size] = True
    top = np.where(scored, values, -np.inf).argmax(axis=1)
    return labels_array(labels, top), transform_rows(values, post_transform)


def _binary(labels: list[Any], w: np.ndarray, h: np.ndarray, cls: int, all_positive: bool, base: np.ndarray,
            post_transform: str) -> tuple[np.ndarray, np.ndarray]:
    zero, false = np.zeros_like(w), np.zeros_like(h)
    p0, h0, p1, h1 = (w, h, zero, false) if cls == 0 else (zero, false, w, h)
    if base.size == 2:
        # class 1 scored: its score plus base_values[1], class 0 its negation; otherwise each class adds its base
        p0, p1 = np.where(h1, -(p1 + base[1]), p0 + base[0]), p1 + base[1]
        two = np.ones_like(h)
    else:
        if base.size == 1:
            p0 = p0 + base[0]
        two = h1  # without a class-1 score there is one score, and Z is made from it
    positive = np.where(two & h1, p1, np.where(h0, p0, 0.0))
    chosen = positive > (0.5 if all_positive else 0.0)
    m0, m1 = np.where(h0, p0, 0.0), np.where(h1, p1, 0.0)  # a score nothing voted for is written as 0
    pair = transform_rows(np.stack([m0, m1], axis=1), post_transform)
    single = binary_pair(m0, post_transform, negated=not all_positive)
    return labels_array(labels, chosen.astype(np.int64)), np.where(two[:, None], pair, single)


def tree_classify(x: np.ndarray, *, base: np.ndarray | None, class_ids: list[int] | None,
                  class_nodeids: list[int] | None, class_treeids: list[int] | None, weights: np.ndarray | None,
                  classlabels_int64s: list[int] | None, classlabels_strings: list[str] | None,
                  nodes_falsenodeids: list[int] | None, nodes_featureids: list[int] | None,
                  nodes_missing_value_tracks_true: list[int] | None, nodes_modes: list[str] | None,
                  nodes_nodeids: list[int] | None, nodes_treeids: list[int] | None,
                  nodes_truenodeids: list[int] | None, values: np.ndarray | None,
                  post_transform: str) -> tuple[np.ndarray, np.ndarray]:
    x = two_dims(OP, x)
    labels = class_labels(OP, classlabels_int64s, classlabels_strings)
    if nodes_treeids is None or values is None:
        raise ValueError(f"{OP}: the nodes_* attributes (and nodes_values) must be given")
    forest = IdForest.build(OP, x, list(nodes_treeids), list(nodes_nodeids or []), list(nodes_featureids or []),
                            list(nodes_modes or []), values, list(nodes_truenodeids or []),
                            list(nodes_falsenodeids or []), nodes_missing_value_tracks_true)
    ids = np.asarray(class_ids if class_ids is not None else [], dtype=np.int64)
    w = weights if weights is not None else np.zeros(0)
    votes = forest.weights(OP, len(labels), list(class_treeids or []), list(class_nodeids or []), ids.tolist(), w)
    score, has = aggregate(votes, forest.forest.leaves(x), "SUM")
    y, z = classify(labels, score, has, ids, w, base, post_transform)
    return y, z.astype(np.float32)


@kernel("ai.onnx.ml", OP, since=1, until=2)
def tree_ensemble_classifier_1(X: np.ndarray, *, base_values: list[float] | None, class_ids: list[int] | None,
                               class_nodeids: list[int] | None, class_treeids: list[int] | None,
                               class_weights: list[float] | None, classlabels_int64s: list[int] | None,
                               classlabels_strings: list[str] | None, nodes_falsenodeids: list[int] | None,
                               nodes_featureids: list[int] | None, nodes_hitrates: list[float] | None,
                               nodes_missing_value_tracks_true: list[int] | None, nodes_modes: list[str] | None,
                               nodes_nodeids: list[int] | None, nodes_treeids: list[int] | None,
                               nodes_truenodeids: list[int] | None, nodes_values: list[float] | None,
                               post_transform: str) -> tuple[np.ndarray, ...]:
    del nodes_hitrates  # a performance hint
    return tree_classify(X, base=floats(base_values), class_ids=class_ids, class_nodeids=class_nodeids,
                         class_treeids=class_treeids, weights=floats(class_weights),
                         classlabels_int64s=classlabels_int64s, classlabels_strings=classlabels_strings,
                         nodes_falsenodeids=nodes_falsenodeids, nodes_featureids=nodes_featureids,
                         nodes_missing_value_tracks_true=nodes_missing_value_tracks_true, nodes_modes=nodes_modes,
                         nodes_nodeids=nodes_nodeids, nodes_treeids=nodes_treeids,
                         nodes_truenodeids=nodes_truenodeids, values=floats(nodes_values),
                         post_transform=post_transform)


@kernel("ai.onnx.ml", OP, since=3)
def tree_ensemble_classifier_3(X: np.ndarray, *, base_values: list[float] | None, base_values_as_tensor: Any,
                               class_ids: list[int] | None, class_nodeids: list[int] | None,
                               class_treeids: list[int] | None, class_weights: list[float] | None,
                               class_weights_as_tensor: Any, classlabels_int64s: list[int] | None,
                               classlabels_strings: list[str] | None, nodes_falsenodeids: list[int] | None,
                               nodes_featureids: list[int] | None, nodes_hitrates: list[float] | None,
                               nodes_hitrates_as_tensor: Any, nodes_missing_value_tracks_true: list[int] | None,
                               nodes_modes: list[str] | None, nodes_nodeids: list[int] | None,
                               nodes_treeids: list[int] | None, nodes_truenodeids: list[int] | None,
                               nodes_values: list[float] | None, nodes_values_as_tensor: Any,
                               post_transform: str) -> tuple[np.ndarray, ...]:
    first_given(OP, ("nodes_hitrates", nodes_hitrates), ("nodes_hitrates_as_tensor", nodes_hitrates_as_tensor))
    return tree_classify(
        X, base=first_given(OP, ("base_values", base_values), ("base_values_as_tensor", base_values_as_tensor)),
        class_ids=class_ids, class_nodeids=class_nodeids, class_treeids=class_treeids,
        weights=first_given(OP, ("class_weights", class_weights), ("class_weights_as_tensor",
                                                                   class_weights_as_tensor)),
        classlabels_int64s=classlabels_int64s, classlabels_strings=classlabels_strings,
        nodes_falsenodeids=nodes_falsenodeids, nodes_featureids=nodes_featureids,
        nodes_missing_value_tracks_true=nodes_missing_value_tracks_true, nodes_modes=nodes_modes,
        nodes_nodeids=nodes_nodeids, nodes_treeids=nodes_treeids, nodes_truenodeids=nodes_truenodeids,
        values=first_given(OP, ("nodes_values", nodes_values), ("nodes_values_as_tensor", nodes_values_as_tensor)),
        post_transform=post_transform)
