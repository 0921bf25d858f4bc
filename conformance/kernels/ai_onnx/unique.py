"""Unique: the distinct elements of X (flattened), or the distinct slices along `axis`, with three int64
companions: `indices` (first occurrence in X of each), `inverse_indices` (for each element or slice of X, its
position in Y) and `counts`.

sorted=1 orders Y ascending (slices lexicographically, element by element in C order); sorted=0 keeps the
order of first occurrence in X.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import normalize_axes
from conformance.kernels.registry import kernel


def _unique(X: np.ndarray, axis: int | None, sorted_: int) -> tuple[np.ndarray, ...]:
    if axis is None:
        y, first, inverse, counts = np.unique(X.reshape(-1), return_index=True, return_inverse=True,
                                              return_counts=True)
        a = 0
    else:
        (a,) = normalize_axes("Unique", [axis], X.ndim)
        unique_slices = _unique_object_slices if X.dtype == object else _unique_slices
        y, first, inverse, counts = unique_slices(X, a)
    inverse = inverse.reshape(-1)
    if not sorted_:
        order = np.argsort(first, kind="stable")  # the distinct values by their first occurrence
        rank = np.empty_like(order)
        rank[order] = np.arange(order.size)
        y, first, counts, inverse = np.take(y, order, axis=a), first[order], counts[order], rank[inverse]
    return (y.astype(X.dtype, copy=False), first.astype(np.int64), inverse.astype(np.int64),
            counts.astype(np.int64))


def _unique_slices(X: np.ndarray, a: int) -> tuple[np.ndarray, ...]:
    return tuple(np.unique(X, return_index=True, return_inverse=True, return_counts=True, axis=a))


def _unique_object_slices(X: np.ndarray, a: int) -> tuple[np.ndarray, ...]:
    """numpy's unique takes no axis for object arrays (strings): group the slices as tuples, which compare
    element by element in C order as numpy's sorted slices do."""
    n = X.shape[a]
    rows = np.moveaxis(X, a, 0).reshape(n, X.size // n if n else 0)
    slices = [tuple(row) for row in rows]
    distinct = sorted(set(slices))
    position = {s: i for i, s in enumerate(distinct)}
    inverse = np.array([position[s] for s in slices], np.int64)
    first = np.full(len(distinct), len(slices), np.int64)
    np.minimum.at(first, inverse, np.arange(len(slices)))
    counts = np.bincount(inverse, minlength=len(distinct))
    y = np.take(X, first, axis=a) if len(distinct) else np.take(X, np.zeros(0, np.int64), axis=a)
    return y, first, inverse, counts


@kernel("ai.onnx", "Unique", since=11)
def unique(X: np.ndarray, *, axis: int | None, sorted: int) -> tuple[np.ndarray, ...]:
    return _unique(X, axis, sorted)
