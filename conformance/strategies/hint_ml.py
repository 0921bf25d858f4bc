"""Hints for ai.onnx.ml's models-in-a-node (tree ensembles, SVMs, linear models): each draw is a whole, valid
random model together with the X it runs on, since the attributes only make sense together.

Trees: a few trees of depth 1 to 3 (now and then a tree that is a single leaf), every node mode, thresholds
mostly taken from X's own values so that a row meets a split with equality (BRANCH_LT and BRANCH_LEQ part
there), NaN features with missing_value_tracks_true set on some nodes, every aggregate function and
post_transform, several targets or classes, base values. Classifier ensembles are either binary in the way
converters write them (every vote for one class) or multi-class. Draws avoid what onnxruntime leaves undefined
(a second score it never writes, a class label it cannot choose): see the ops' YAML.

SVMs and linear models: support vectors per class, every kernel type, prob_a/prob_b now and then, one row of
coefficients per class (or a single row for two classes).

The structural choices are drawn by Hypothesis; the values fill from a drawn seed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from hypothesis import strategies as st

from conformance.strategies.attributes import DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.dtypes import numpy_dtype
from conformance.strategies.hints import OpHint, set_input_shape
from conformance.strategies.memo import BOOLEANS, integers
from conformance.strategies.values import SEEDS

LEQ, LT, GTE, GT, EQ, NEQ, MEMBER = range(7)
MODE_NAMES = ("BRANCH_LEQ", "BRANCH_LT", "BRANCH_GTE", "BRANCH_GT", "BRANCH_EQ", "BRANCH_NEQ")
POST = ("NONE", "SOFTMAX", "LOGISTIC", "SOFTMAX_ZERO", "PROBIT")
AGGREGATES = ("AVERAGE", "SUM", "MIN", "MAX")


# ---- X -------------------------------------------------------------------------------------------------------

def _x(rng: np.random.Generator, element: str, n: int, f: int, nan: bool, integral: bool = False) -> np.ndarray:
    """Quarter steps in [-2, 2] for floats (whole numbers where `integral`; a fifth of them NaN where `nan`),
    integers in [-3, 3]."""
    dtype = numpy_dtype(element)
    if dtype.kind == "f":
        x = rng.integers(-3, 4, size=(n, f)) * 1.0 if integral else rng.integers(-8, 9, size=(n, f)) / 4.0
        if nan:
            x = np.where(rng.random((n, f)) < 0.2, np.nan, x)
        return x.astype(dtype)
    return rng.integers(-3, 4, size=(n, f)).astype(dtype)


def _grid(rng: np.random.Generator, size: int, low: float = -2.0, high: float = 2.0) -> list[float]:
    """Eighth steps in [low, high] (exact in every float width)."""
    return [float(v) / 8.0 for v in rng.integers(int(low * 8), int(high * 8) + 1, size=size)]


def _draw_x(draw: DrawFn, ctx: DrawContext, rng: np.random.Generator, *, integral: bool = False) -> np.ndarray:
    n, f = draw(integers(1, 5)), draw(integers(1, 4))
    element = ctx.element_of(ctx.version.inputs[0].type)
    x = _x(rng, element, n, f, nan=draw(BOOLEANS), integral=integral)
    set_input_shape(ctx, "X", [n, f])
    ctx.scratch["X"] = x
    return x


def _given_x(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    return np.asarray(ctx.scratch["X"])


# ---- random trees --------------------------------------------------------------------------------------------

@dataclass
class Branch:
    feature: int
    threshold: float
    mode: int
    missing_true: int
    true: Branch | int  # int: a leaf's index
    false: Branch | int
    members: list[float] = field(default_factory=list)


@dataclass
class Ensemble:
    trees: list[Branch | int]  # int: a tree that is a single leaf
    leaves: int
    track_missing: bool  # whether nodes_missing_value_tracks_true is given


def _threshold(rng: np.random.Generator, column: np.ndarray, integer: bool) -> float:
    """Mostly a value X has (equality at the split), else one beside it or on the grid."""
    present = column[~np.isnan(column)] if column.dtype.kind == "f" else column
    pick = rng.random()
    if present.size and pick < 0.7:
        return float(rng.choice(present))
    if present.size and pick < 0.85:
        return float(rng.choice(present)) + float(rng.choice([-0.5, 0.5]))
    return float(rng.integers(-3, 4)) if integer else _grid(rng, 1)[0]


def _members(rng: np.random.Generator, column: np.ndarray) -> list[float]:
    """A few integers, mostly ones X's column holds (onnxruntime implements integer-valued sets only)."""
    present = column[~np.isnan(column)] if column.dtype.kind == "f" else column
    pool = sorted({*(float(v) for v in present if float(v).is_integer()),
                   *(float(v) for v in rng.integers(-3, 4, size=2))})
    count = int(rng.integers(1, min(3, len(pool)) + 1))
    return [float(v) for v in rng.choice(pool, size=count, replace=False)]


def random_ensemble(rng: np.random.Generator, x: np.ndarray, trees: int, max_depth: int, modes: list[int],
                    single_leaf_trees: bool) -> Ensemble:
    """Trees over X's features with `modes`; leaves numbered in creation order."""
    integer = x.dtype.kind != "f"
    has_nan = not integer and bool(np.isnan(x).any())
    track = has_nan or bool(rng.random() < 0.5)
    counter = [0]

    def leaf() -> int:
        counter[0] += 1
        return counter[0] - 1

    def grow(depth: int) -> Branch | int:
        if depth == 0 or (depth < max_depth and rng.random() < 0.3):
            return leaf()
        feature = int(rng.integers(0, x.shape[1]))
        mode = int(rng.choice(modes))
        column = x[:, feature].astype(np.float64)
        node = Branch(feature, _threshold(rng, column, integer), mode, int(track and rng.random() < 0.5),
                      grow(depth - 1), grow(depth - 1))
        if mode == MEMBER:
            node.members = _members(rng, column)
        return node

    grown: list[Branch | int] = []
    for _ in range(trees):
        grown.append(leaf() if single_leaf_trees and rng.random() < 0.15 else grow(max_depth))
    return Ensemble(grown, counter[0], track)


def _preorder(tree: Branch | int) -> list[Branch | int]:
    out: list[Branch | int] = []
    stack: list[Branch | int] = [tree]
    while stack:
        node = stack.pop()
        out.append(node)
        if isinstance(node, Branch):
            stack.extend([node.false, node.true])
    return out


def old_nodes(ensemble: Ensemble, rng: np.random.Generator) -> tuple[dict[str, Any], list[tuple[int, int, int]]]:
    """The nodes_* attributes of TreeEnsembleClassifier/Regressor (node ids per tree in preorder, tree ids
    increasing) and, per leaf index, its (tree id, node id, leaf index)."""
    attrs: dict[str, list[Any]] = {k: [] for k in ("nodes_treeids", "nodes_nodeids", "nodes_featureids",
                                                   "nodes_modes", "nodes_values", "nodes_truenodeids",
                                                   "nodes_falsenodeids", "nodes_missing_value_tracks_true")}
    leaves: list[tuple[int, int, int]] = []
    tree_id = int(rng.integers(0, 3))
    for tree in ensemble.trees:
        order = _preorder(tree)
        ids = {id(node) if isinstance(node, Branch) else ("leaf", node): k for k, node in enumerate(order)}

        def key(node: Branch | int) -> Any:
            return id(node) if isinstance(node, Branch) else ("leaf", node)

        for k, node in enumerate(order):
            attrs["nodes_treeids"].append(tree_id)
            attrs["nodes_nodeids"].append(k)
            if isinstance(node, Branch):
                attrs["nodes_featureids"].append(node.feature)
                attrs["nodes_modes"].append(MODE_NAMES[node.mode])
                attrs["nodes_values"].append(node.threshold)
                attrs["nodes_truenodeids"].append(ids[key(node.true)])
                attrs["nodes_falsenodeids"].append(ids[key(node.false)])
                attrs["nodes_missing_value_tracks_true"].append(node.missing_true)
            else:
                attrs["nodes_featureids"].append(0)
                attrs["nodes_modes"].append("LEAF")
                attrs["nodes_values"].append(0.0)
                attrs["nodes_truenodeids"].append(0)
                attrs["nodes_falsenodeids"].append(0)
                attrs["nodes_missing_value_tracks_true"].append(0)
                leaves.append((tree_id, k, node))
        tree_id += int(rng.integers(1, 3))
    out: dict[str, Any] = dict(attrs)
    if not ensemble.track_missing:
        del out["nodes_missing_value_tracks_true"]
    return out, sorted(leaves, key=lambda t: t[2])


def new_nodes(ensemble: Ensemble, rng: np.random.Generator, dtype: np.dtype) -> dict[str, Any]:
    """TreeEnsemble's nodes_*, tree_roots and membership_values: branch nodes and leaves in shuffled order, a
    single-leaf tree as a node whose two branches reach one leaf (the leaf at the node's own index, where the
    spec and onnxruntime agree)."""
    branches: list[Branch] = []
    singles = [t for t in ensemble.trees if not isinstance(t, Branch)]
    for tree in ensemble.trees:
        if isinstance(tree, Branch):
            branches.extend(node for node in _preorder(tree) if isinstance(node, Branch))
    others = [leaf for leaf in range(ensemble.leaves) if leaf not in singles]
    leaf_order = singles + [others[i] for i in rng.permutation(len(others))]
    leaf_index = {leaf: k for k, leaf in enumerate(leaf_order)}
    node_order = [branches[i] for i in rng.permutation(len(branches))]
    node_index = {id(node): len(singles) + k for k, node in enumerate(node_order)}
    n = len(singles) + len(node_order)
    attrs: dict[str, Any] = {k: [0] * n for k in ("nodes_featureids", "nodes_truenodeids", "nodes_falsenodeids",
                                                  "nodes_trueleafs", "nodes_falseleafs",
                                                  "nodes_missing_value_tracks_true")}
    splits, modes = [0.0] * n, [0] * n
    for k in range(len(singles)):  # node k: both branches to leaf k
        attrs["nodes_trueleafs"][k] = attrs["nodes_falseleafs"][k] = 1
        attrs["nodes_truenodeids"][k] = attrs["nodes_falsenodeids"][k] = k
    for node in node_order:
        k = node_index[id(node)]
        attrs["nodes_featureids"][k] = node.feature
        splits[k], modes[k] = node.threshold, node.mode
        attrs["nodes_missing_value_tracks_true"][k] = node.missing_true
        for side, child in (("true", node.true), ("false", node.false)):
            leaf = not isinstance(child, Branch)
            attrs[f"nodes_{side}leafs"][k] = int(leaf)
            attrs[f"nodes_{side}nodeids"][k] = leaf_index[child] if not isinstance(child, Branch) \
                else node_index[id(child)]
    attrs["nodes_splits"] = np.asarray(splits, dtype=dtype)
    attrs["nodes_modes"] = np.asarray(modes, dtype=np.uint8)
    roots = []
    for tree in ensemble.trees:
        roots.append(leaf_index[tree] if not isinstance(tree, Branch) else node_index[id(tree)])
    attrs["tree_roots"] = roots
    members = [v for node in sorted(node_order, key=lambda b: node_index[id(b)]) if node.mode == MEMBER
               for v in [*node.members, float("nan")]]
    if members:
        attrs["membership_values"] = np.asarray(members, dtype=dtype)
    if not ensemble.track_missing:
        del attrs["nodes_missing_value_tracks_true"]
    attrs["_leaf_order"] = leaf_order
    return attrs


# ---- the three tree ops --------------------------------------------------------------------------------------

def _ensemble(draw: DrawFn, rng: np.random.Generator, x: np.ndarray, *, member: bool,
              single_leaf_trees: bool) -> Ensemble:
    modes = list(range(7 if member else 6))
    if draw(integers(0, 3)) == 0:  # one mode for every node (onnxruntime has a separate path for it)
        modes = [int(rng.choice(modes))]
    return random_ensemble(rng, x, draw(integers(1, 3)), draw(integers(1, 3)), modes, single_leaf_trees)


def _double_twins(draw: DrawFn, ctx: DrawContext, attrs: dict[str, Any], names: list[str]) -> None:
    """Version 3 with double X: each float attribute drawn as its double `_as_tensor` twin half the time."""
    if ctx.version.since < 3 or ctx.element_of(ctx.version.inputs[0].type) != "double":
        return
    for name in names:
        if name in attrs and draw(BOOLEANS):
            attrs[f"{name}_as_tensor"] = np.asarray(attrs.pop(name), dtype=np.float64)


def _hitrates(draw: DrawFn, rng: np.random.Generator, attrs: dict[str, Any], n: int) -> None:
    if draw(integers(0, 3)) == 0:
        attrs["nodes_hitrates"] = _grid(rng, n, 0.0, 1.0)


def regressor_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    rng = np.random.default_rng(draw(SEEDS))
    x = _draw_x(draw, ctx, rng)
    ensemble = _ensemble(draw, rng, x, member=False, single_leaf_trees=True)
    attrs, leaves = old_nodes(ensemble, rng)
    targets = draw(integers(1, 3))
    with_base = draw(BOOLEANS)
    full = targets == 1 or with_base or draw(BOOLEANS)  # every leaf votes for every target
    votes: dict[str, list[Any]] = {"target_treeids": [], "target_nodeids": [], "target_ids": [], "target_weights": []}
    for tree_id, node_id, _ in leaves:
        chosen = range(targets) if full else sorted(rng.choice(targets, size=int(rng.integers(1, targets + 1)),
                                                               replace=False))
        for target in chosen:
            votes["target_treeids"].append(tree_id)
            votes["target_nodeids"].append(node_id)
            votes["target_ids"].append(int(target))
            votes["target_weights"].append(_grid(rng, 1)[0])
    attrs.update(votes)
    attrs["n_targets"] = targets
    attrs["aggregate_function"] = draw(st.sampled_from(AGGREGATES))
    attrs["post_transform"] = draw(st.sampled_from(POST))
    if with_base:
        attrs["base_values"] = _grid(rng, targets)
    _hitrates(draw, rng, attrs, len(attrs["nodes_treeids"]))
    _double_twins(draw, ctx, attrs, ["nodes_values", "target_weights", "base_values", "nodes_hitrates"])
    ctx.attributes.update(attrs)


def _labels(draw: DrawFn, ctx: DrawContext, rng: np.random.Generator, count: int, name_ints: str,
            name_strings: str) -> dict[str, Any]:
    """Distinct class labels: strings where the label type is bound to strings, else integers."""
    if ctx.type_bindings.get("T2") == "string":
        return {name_strings: [f"c{int(v)}" for v in sorted(rng.choice(20, size=count, replace=False))]}
    return {name_ints: [int(v) for v in sorted(rng.choice(np.arange(-3, 20), size=count, replace=False))]}


def classifier_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    rng = np.random.default_rng(draw(SEEDS))
    x = _draw_x(draw, ctx, rng)
    ensemble = _ensemble(draw, rng, x, member=False, single_leaf_trees=True)
    attrs, leaves = old_nodes(ensemble, rng)
    kind = draw(st.sampled_from(["binary", "binary", "multi", "both"]))  # "both": two classes, votes for both
    classes = 2 if kind != "multi" else draw(integers(3, 4))
    attrs.update(_labels(draw, ctx, rng, classes, "classlabels_int64s", "classlabels_strings"))
    votes: dict[str, list[Any]] = {"class_treeids": [], "class_nodeids": [], "class_ids": [], "class_weights": []}
    positive = kind == "binary" and draw(BOOLEANS)
    voted = 1 if kind == "binary" and draw(integers(0, 3)) == 0 else 0
    for tree_id, node_id, _ in leaves:
        if kind == "binary":
            chosen = [voted]
        else:
            chosen = sorted(rng.choice(classes, size=int(rng.integers(1, classes + 1)), replace=False))
        for cls in chosen:
            votes["class_treeids"].append(tree_id)
            votes["class_nodeids"].append(node_id)
            votes["class_ids"].append(int(cls))
            votes["class_weights"].append(_grid(rng, 1, 0.0, 1.0)[0] if positive else _grid(rng, 1)[0])
    attrs.update(votes)
    if kind == "binary":
        # two base values only with class-0 votes (reading treeensembleclassifier_r2); PROBIT only with two base
        # values (else onnxruntime writes just one of the two scores)
        base = draw(st.sampled_from([0, 1, 2] if voted == 0 else [0, 1]))
        post = draw(st.sampled_from(POST if base == 2 else POST[:4]))
    else:
        base = draw(st.sampled_from([0, classes]))
        post = draw(st.sampled_from(POST))
    if base:
        attrs["base_values"] = _grid(rng, base)
    attrs["post_transform"] = post
    _hitrates(draw, rng, attrs, len(attrs["nodes_treeids"]))
    _double_twins(draw, ctx, attrs, ["nodes_values", "class_weights", "base_values", "nodes_hitrates"])
    ctx.attributes.update(attrs)


def tree_ensemble_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    rng = np.random.default_rng(draw(SEEDS))
    # whole-number features half the time: onnxruntime truncates a feature before testing set membership
    # (reading treeensemble_r3), so only whole numbers compare it with the spec
    x = _draw_x(draw, ctx, rng, integral=draw(BOOLEANS))
    ensemble = _ensemble(draw, rng, x, member=True, single_leaf_trees=True)
    dtype = x.dtype
    attrs = new_nodes(ensemble, rng, dtype)
    leaf_order = attrs.pop("_leaf_order")
    targets = draw(integers(1, 3))
    attrs["leaf_targetids"] = [int(rng.integers(0, targets)) for _ in leaf_order]
    attrs["leaf_weights"] = np.asarray(_grid(rng, len(leaf_order)), dtype=dtype)
    attrs["n_targets"] = targets
    attrs["aggregate_function"] = draw(integers(0, 3))
    attrs["post_transform"] = draw(integers(0, 4))
    if dtype == np.float32 and draw(integers(0, 3)) == 0:  # always float (onnxruntime unpacks only float X's)
        attrs["nodes_hitrates"] = np.asarray(_grid(rng, len(attrs["nodes_featureids"]), 0.0, 1.0), dtype=np.float32)
    ctx.attributes.update(attrs)


REGRESSOR_HINT = OpHint(shapes=regressor_shapes, values={"X": _given_x}, generic_attributes=False)
CLASSIFIER_HINT = OpHint(shapes=classifier_shapes, values={"X": _given_x}, generic_attributes=False)
TREE_ENSEMBLE_HINT = OpHint(shapes=tree_ensemble_shapes, values={"X": _given_x}, generic_attributes=False)


# ---- SVMs and linear models ----------------------------------------------------------------------------------

def _kernel(draw: DrawFn) -> dict[str, Any]:
    return {"kernel_type": draw(st.sampled_from(["LINEAR", "POLY", "RBF", "SIGMOID"])),
            "kernel_params": [draw(st.sampled_from([0.125, 0.25, 0.5])), draw(st.sampled_from([0.0, 0.5, 1.0])),
                              float(draw(integers(1, 3)))]}


def svm_classifier_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    rng = np.random.default_rng(draw(SEEDS))
    x = _draw_x(draw, ctx, rng)
    f = x.shape[1]
    classes = draw(integers(2, 4))
    attrs: dict[str, Any] = _labels(draw, ctx, rng, classes, "classlabels_ints", "classlabels_strings")
    attrs.update(_kernel(draw))
    pairs = classes * (classes - 1) // 2
    if draw(integers(0, 4)) > 0:  # one-vs-one SVC
        counts: list[int] = np.asarray(rng.integers(0, 4, size=classes)).astype(int).tolist()
        if sum(counts) == 0:
            counts[int(rng.integers(0, classes))] = 1
        total = sum(counts)
        attrs.update(vectors_per_class=counts, support_vectors=_grid(rng, total * f),
                     coefficients=_grid(rng, (classes - 1) * total), rho=_grid(rng, pairs, -1.0, 1.0))
        proba = draw(BOOLEANS)
        if proba:
            attrs.update(prob_a=_grid(rng, pairs, -3.0, -0.5), prob_b=_grid(rng, pairs, -0.5, 0.5))
        # two classes without probabilities: onnxruntime writes only one of the two PROBIT scores
        post = draw(st.sampled_from(POST[:4] if classes == 2 and not proba else POST))
    else:  # one linear model per class
        low = 0.0 if draw(BOOLEANS) else -2.0
        attrs.update(coefficients=_grid(rng, classes * f, low, 2.0), rho=_grid(rng, 1, -1.0, 1.0))
        post = draw(st.sampled_from(POST))
    attrs["post_transform"] = post
    ctx.attributes.update(attrs)


def svm_regressor_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    rng = np.random.default_rng(draw(SEEDS))
    x = _draw_x(draw, ctx, rng)
    f = x.shape[1]
    attrs: dict[str, Any] = _kernel(draw)
    supports = draw(integers(0, 4))
    if supports:
        attrs.update(n_supports=supports, support_vectors=_grid(rng, supports * f), coefficients=_grid(rng, supports))
    else:
        attrs["coefficients"] = _grid(rng, f)
    attrs["rho"] = _grid(rng, 1, -1.0, 1.0)
    attrs["one_class"] = draw(integers(0, 1))
    attrs["post_transform"] = draw(st.sampled_from(POST))
    ctx.attributes.update(attrs)


def linear_classifier_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    rng = np.random.default_rng(draw(SEEDS))
    x = _draw_x(draw, ctx, rng)
    f = x.shape[1]
    classes = draw(integers(2, 4))
    rows = 1 if classes == 2 and draw(BOOLEANS) else classes
    attrs: dict[str, Any] = _labels(draw, ctx, rng, classes, "classlabels_ints", "classlabels_strings")
    attrs.update(coefficients=_grid(rng, rows * f), intercepts=_grid(rng, rows, -1.0, 1.0),
                 multi_class=draw(integers(0, 1)),
                 # a single row with PROBIT: onnxruntime writes only half of the scores
                 post_transform=draw(st.sampled_from(POST[:4] if rows == 1 else POST)))
    ctx.attributes.update(attrs)


def linear_regressor_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    rng = np.random.default_rng(draw(SEEDS))
    x = _draw_x(draw, ctx, rng)
    targets = draw(integers(1, 3))
    attrs: dict[str, Any] = {"targets": targets, "coefficients": _grid(rng, targets * x.shape[1]),
                             "post_transform": draw(st.sampled_from(POST))}
    if draw(integers(0, 3)) > 0:
        attrs["intercepts"] = _grid(rng, targets, -1.0, 1.0)
    ctx.attributes.update(attrs)


SVM_CLASSIFIER_HINT = OpHint(shapes=svm_classifier_shapes, values={"X": _given_x}, generic_attributes=False)
SVM_REGRESSOR_HINT = OpHint(shapes=svm_regressor_shapes, values={"X": _given_x}, generic_attributes=False)
LINEAR_CLASSIFIER_HINT = OpHint(shapes=linear_classifier_shapes, values={"X": _given_x}, generic_attributes=False)
LINEAR_REGRESSOR_HINT = OpHint(shapes=linear_regressor_shapes, values={"X": _given_x}, generic_attributes=False)
