"""Helpers of the indexing kernels (Gather*, Scatter*, TensorScatter): checked axes and indices, and the
write of many updates into one array with onnx's reductions (not kernels themselves)."""

from __future__ import annotations

import numpy as np

REDUCTIONS = ("none", "add", "mul", "max", "min")
_UFUNCS = {"add": np.add, "mul": np.multiply, "max": np.maximum, "min": np.minimum}


def checked_axis(op: str, axis: int, rank: int) -> int:
    """`axis` in [-rank, rank-1] made non-negative; anything else raises ValueError."""
    if not -rank <= axis < rank:
        raise ValueError(f"{op}: axis {axis} is out of range for rank {rank}")
    return axis + rank if axis < 0 else axis


def checked_indices(op: str, indices: np.ndarray, size: int | np.ndarray, *, negative: bool) -> np.ndarray:
    """Index values as int64, a negative one counted from the end of its axis (when `negative`).

    `size` is the axis size, or an array of sizes broadcasting against `indices` (one per index column).
    Values outside [-size, size-1] (or [0, size-1] without `negative`) raise ValueError.
    """
    idx = np.asarray(indices)
    if idx.dtype.kind not in "iu":
        raise ValueError(f"{op}: indices must be integers, got {idx.dtype}")
    idx = idx.astype(np.int64)
    bound = np.broadcast_to(np.asarray(size, dtype=np.int64), idx.shape)
    low = -bound if negative else np.zeros_like(bound)
    bad = (idx < low) | (idx >= bound)
    if bad.any():
        first = tuple(int(i) for i in np.argwhere(bad)[0])
        allowed = "[-s, s-1]" if negative else "[0, s-1]"
        raise ValueError(f"{op}: index {int(idx[first])} at {first} is outside {allowed} for an axis of size "
                         f"{int(bound[first])}")
    return np.where(idx < 0, idx + bound, idx)


def write_updates(op: str, target: np.ndarray, positions: np.ndarray, updates: np.ndarray, reduction: str) -> None:
    """Write `updates[i]` at `target[positions[i]]` (along the first axis of `target`), in place.

    `reduction` "none" replaces, and of several updates of one position the last in row-major order wins
    (onnx leaves that order open); "add", "mul", "max", "min" combine the old value with each update in
    row-major order, in the target's dtype (integers wrap, bool add is `or` and mul is `and`). In a string
    tensor add concatenates (old value first, as onnx.reference and onnxruntime do), max and min compare by code
    point, and mul is undefined (ValueError).
    """
    if reduction == "none":
        if positions.size == 0:
            return
        # the last occurrence of each position: the first occurrence in the reversed order
        reversed_positions = positions[::-1]
        _, first_in_reversed = np.unique(reversed_positions, return_index=True)
        last = positions.size - 1 - first_in_reversed
        target[positions[last]] = updates[last]
        return
    if target.dtype.kind == "O" and reduction == "mul":
        raise ValueError(f"{op}: reduction 'mul' of strings is undefined")
    ufunc = _UFUNCS.get(reduction)
    if ufunc is None:
        raise ValueError(f"{op}: reduction must be one of {', '.join(REDUCTIONS)}, got {reduction!r}")
    ufunc.at(target, positions, updates)


def scatter_elements_into(op: str, data: np.ndarray, indices: np.ndarray, updates: np.ndarray, axis: int,
                          reduction: str, *, negative: bool) -> np.ndarray:
    """ScatterElements (and the deprecated Scatter): a copy of `data` with `updates[p]` written at `p` with its
    `axis` coordinate replaced by `indices[p]`, combined by `reduction` (see `write_updates`)."""
    shape, ishape = data.shape, np.shape(indices)
    if data.ndim < 1 or len(ishape) != data.ndim:
        raise ValueError(f"{op}: data {shape} and indices {ishape} need one rank >= 1")
    if np.shape(updates) != ishape:
        raise ValueError(f"{op}: updates {np.shape(updates)} must have the shape of indices {ishape}")
    ax = checked_axis(op, axis, data.ndim)
    if any(ishape[d] > shape[d] for d in range(data.ndim) if d != ax):
        raise ValueError(f"{op}: indices {ishape} exceed data {shape} on an axis other than {ax}")
    idx = checked_indices(op, indices, shape[ax], negative=negative)
    coords: list[np.ndarray] = list(np.indices(ishape, sparse=True))
    coords[ax] = idx
    full: tuple[np.ndarray, ...] = tuple(np.broadcast_arrays(*coords))
    positions = np.asarray(np.ravel_multi_index(full, shape)).reshape(-1)
    out = np.array(data, copy=True, order="C")
    write_updates(op, out.reshape(-1), positions, np.asarray(updates).reshape(-1), reduction)
    return out
