"""Tree ensembles shared by TreeEnsemble, TreeEnsembleClassifier and TreeEnsembleRegressor (not kernels).

A `Forest` holds the branch nodes of every tree as flat arrays; `leaves` walks all trees for all rows at
once (one numpy step per tree level, every (row, tree) pair advancing together) and gives the leaf each
pair ends in. `LeafWeights` holds what the leaves vote, per leaf and target, and `aggregate` combines the
votes of the reached leaves per row.

Comparisons happen in the precision onnxruntime uses: double for double inputs, single precision for
everything else (float16, float, and integers converted to float, thresholds rounded to float).
A NaN feature follows the true branch where the node's missing_value_tracks_true is 1; otherwise it
compares as NaN does (false, except BRANCH_NEQ, which is true).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# node modes, numbered as TreeEnsemble (ai.onnx.ml 5) numbers them; LEAF only in the older ops' nodes_modes
LEQ, LT, GTE, GT, EQ, NEQ, MEMBER, LEAF = range(8)
MODE_NAMES = {"BRANCH_LEQ": LEQ, "BRANCH_LT": LT, "BRANCH_GTE": GTE, "BRANCH_GT": GT, "BRANCH_EQ": EQ,
              "BRANCH_NEQ": NEQ, "LEAF": LEAF}
AGGREGATES = ("AVERAGE", "SUM", "MIN", "MAX")  # TreeEnsemble's ints index this


def compare_dtype(x: np.ndarray) -> type[np.floating]:
    """Double inputs compare in double, every other input type in single precision."""
    return np.float64 if x.dtype == np.float64 else np.float32


@dataclass(frozen=True)
class Forest:
    """Branch nodes (index i) and where their branches lead: `true_next[i]` is a node index, or a leaf index
    where `true_leaf[i]`; likewise for the false branch. Tree k starts at node `roots[k]`, or is the single
    leaf `roots[k]` where `root_leaf[k]`."""

    op: str
    feature: np.ndarray  # int64
    threshold: np.ndarray  # in the comparison precision
    mode: np.ndarray  # int64, LEQ .. MEMBER
    true_next: np.ndarray
    false_next: np.ndarray
    true_leaf: np.ndarray  # bool
    false_leaf: np.ndarray
    missing_true: np.ndarray  # bool
    members: np.ndarray  # [nodes, width] set members of BRANCH_MEMBER nodes, NaN-padded
    roots: np.ndarray
    root_leaf: np.ndarray

    def leaves(self, x: np.ndarray) -> np.ndarray:
        """[N, trees]: the leaf each row reaches in each tree."""
        n, features = x.shape
        if self.feature.size and (self.feature.min() < 0 or self.feature.max() >= features):
            raise ValueError(f"{self.op}: a node reads feature {int(self.feature.max())}, X has {features}")
        trees = self.roots.size
        current = np.broadcast_to(self.roots, (n, trees)).copy()
        done = np.broadcast_to(self.root_leaf, (n, trees)).copy()
        for _ in range(self.feature.size + 1):
            rows, cols = np.nonzero(~done)
            if rows.size == 0:
                return current
            node = current[rows, cols]
            go_true = self._decide(node, x[rows, self.feature[node]])
            current[rows, cols] = np.where(go_true, self.true_next[node], self.false_next[node])
            done[rows, cols] = np.where(go_true, self.true_leaf[node], self.false_leaf[node])
        raise ValueError(f"{self.op}: a tree has a cycle (a walk visits more nodes than the ensemble has)")

    def _decide(self, node: np.ndarray, value: np.ndarray) -> np.ndarray:
        threshold, mode = self.threshold[node], self.mode[node]
        with np.errstate(invalid="ignore"):
            outcome = np.select([mode == LEQ, mode == LT, mode == GTE, mode == GT, mode == EQ, mode == NEQ],
                                [value <= threshold, value < threshold, value >= threshold, value > threshold,
                                 value == threshold, value != threshold], default=False)
        member = mode == MEMBER
        if member.any():
            outcome = np.where(member, (self.members[node] == value[:, None]).any(axis=1), outcome)
        return np.asarray(outcome | (self.missing_true[node] & np.isnan(value)))


@dataclass(frozen=True)
class LeafWeights:
    """Per leaf and target: the sum, least and greatest of its weights, and whether it has any."""

    total: np.ndarray  # [leaves, targets]
    least: np.ndarray
    most: np.ndarray
    has: np.ndarray  # bool

    @staticmethod
    def build(op: str, leaves: int, targets: int, leaf: np.ndarray, target: np.ndarray,
              weight: np.ndarray) -> LeafWeights:
        if target.size and (target.min() < 0 or target.max() >= targets):
            raise ValueError(f"{op}: a weight names target/class {int(target.max())}, there are {targets}")
        total = np.zeros((leaves, targets))
        least = np.full((leaves, targets), np.inf)
        most = np.full((leaves, targets), -np.inf)
        count = np.zeros((leaves, targets), dtype=np.int64)
        np.add.at(total, (leaf, target), weight)
        np.minimum.at(least, (leaf, target), weight)
        np.maximum.at(most, (leaf, target), weight)
        np.add.at(count, (leaf, target), 1)
        return LeafWeights(total, least, most, count > 0)


def aggregate(weights: LeafWeights, reached: np.ndarray, function: str) -> tuple[np.ndarray, np.ndarray]:
    """Per row and target: the aggregate over the reached leaves' weights, and whether any leaf weighed it
    (a target no reached leaf weighs aggregates to 0)."""
    has = weights.has[reached]  # [N, trees, targets]
    scored = has.any(axis=1)
    trees = reached.shape[1]
    if function in ("SUM", "AVERAGE"):
        score = weights.total[reached].sum(axis=1)
        if function == "AVERAGE":
            score = score / trees
    elif function == "MIN":
        score = np.where(has, weights.least[reached], np.inf).min(axis=1, initial=np.inf)
    elif function == "MAX":
        score = np.where(has, weights.most[reached], -np.inf).max(axis=1, initial=-np.inf)
    else:
        raise ValueError(f"unknown aggregate_function {function!r}")
    return np.where(scored, score, 0.0), scored


# ---- the older ops: nodes named by (tree id, node id), weights attached to leaf nodes -----------------------

@dataclass(frozen=True)
class IdForest:
    """TreeEnsembleClassifier/Regressor's nodes: `forest` walks them, with leaves numbered as nodes."""

    forest: Forest
    index_of: dict[tuple[int, int], int]  # (tree id, node id) -> position
    is_leaf: np.ndarray

    @staticmethod
    def build(op: str, x: np.ndarray, treeids: list[int], nodeids: list[int], featureids: list[int],
              modes: list[str], values: np.ndarray, truenodeids: list[int], falsenodeids: list[int],
              missing: list[int] | None) -> IdForest:
        n = len(treeids)
        lengths = {"nodes_nodeids": len(nodeids), "nodes_featureids": len(featureids), "nodes_modes": len(modes),
                   "nodes_values": len(values), "nodes_truenodeids": len(truenodeids),
                   "nodes_falsenodeids": len(falsenodeids)}
        if missing is not None:
            lengths["nodes_missing_value_tracks_true"] = len(missing)
        wrong = {k: v for k, v in lengths.items() if v != n}
        if wrong:
            raise ValueError(f"{op}: nodes_treeids has {n} entries but {wrong}")
        unknown = sorted({m for m in modes if m not in MODE_NAMES})
        if unknown:
            raise ValueError(f"{op}: unknown node modes {unknown}")
        index_of: dict[tuple[int, int], int] = {}
        for i, key in enumerate(zip(treeids, nodeids, strict=True)):
            if key in index_of:
                raise ValueError(f"{op}: node {key[1]} of tree {key[0]} appears twice")
            index_of[key] = i
        mode = np.array([MODE_NAMES[m] for m in modes], dtype=np.int64)
        is_leaf = mode == LEAF

        def child(ids: list[int]) -> np.ndarray:
            out = np.zeros(n, dtype=np.int64)
            for i in np.flatnonzero(~is_leaf):
                found = index_of.get((treeids[i], ids[i]))
                if found is None:
                    raise ValueError(f"{op}: node {nodeids[i]} of tree {treeids[i]} points to node {ids[i]}, "
                                     "which that tree does not have")
                out[i] = found
            return out

        true_next, false_next = child(truenodeids), child(falsenodeids)
        firsts: dict[int, int] = {}
        for i, t in enumerate(treeids):
            firsts.setdefault(t, i)  # a tree's root is its first listed node
        roots = np.array(list(firsts.values()), dtype=np.int64)
        dtype = compare_dtype(x)
        forest = Forest(op, np.asarray(featureids, dtype=np.int64).reshape(-1), values.astype(dtype), mode,
                        true_next, false_next, is_leaf[true_next], is_leaf[false_next],
                        np.asarray(missing if missing is not None else np.zeros(n), dtype=np.int64) == 1,
                        np.full((n, 1), np.nan), roots, is_leaf[roots])
        if forest.feature.size:
            forest = _only_branches_read(forest, is_leaf)
        return IdForest(forest, index_of, is_leaf)

    def weights(self, op: str, targets: int, treeids: list[int], nodeids: list[int], ids: list[int],
                weights: np.ndarray) -> LeafWeights:
        """The votes `(treeids[k], nodeids[k]) -> ids[k] with weights[k]`; votes on branch nodes count for nothing
        (onnxruntime ignores them: old converters wrote some)."""
        if not len(treeids) == len(nodeids) == len(ids) == len(weights):
            raise ValueError(f"{op}: the weight attributes differ in length: {len(treeids)}, {len(nodeids)}, "
                             f"{len(ids)}, {len(weights)}")
        position = np.zeros(len(ids), dtype=np.int64)
        for k, key in enumerate(zip(treeids, nodeids, strict=True)):
            found = self.index_of.get(key)
            if found is None:
                raise ValueError(f"{op}: a weight names node {key[1]} of tree {key[0]}, which does not exist")
            position[k] = found
        keep = self.is_leaf[position]
        return LeafWeights.build(op, self.is_leaf.size, targets, position[keep],
                                 np.asarray(ids, dtype=np.int64)[keep], weights[keep])


def _only_branches_read(forest: Forest, is_leaf: np.ndarray) -> Forest:
    """Leaf nodes read no feature: give them feature 0 so that a leaf's unused feature id cannot fail the check."""
    feature = np.where(is_leaf, 0, forest.feature)
    return Forest(forest.op, feature, forest.threshold, forest.mode, forest.true_next, forest.false_next,
                  forest.true_leaf, forest.false_leaf, forest.missing_true, forest.members, forest.roots,
                  forest.root_leaf)
