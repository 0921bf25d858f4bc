"""Slice (tengine, op id 27): the Caffe, MXNet, ONNX or TensorFlow flavour (first flag set wins)."""

from __future__ import annotations

from itertools import pairwise

import numpy as np

from conformance.kernels.registry import kernel


def _axis(axis: int, rank: int) -> int:
    if not -rank <= axis < rank:
        raise ValueError(f"Slice: axis {axis} is outside [-{rank}, {rank})")
    return axis + rank if axis < 0 else axis


def _caffe(x: np.ndarray, ax: int, points: list[int]) -> tuple[np.ndarray, ...]:
    bounds = [0, *points, x.shape[ax]]
    if not points or any(a >= b for a, b in pairwise(bounds)):
        raise ValueError(f"Slice: Caffe slice points {points} must increase strictly inside (0, {x.shape[ax]})")
    return tuple(p.copy() for p in np.split(x, points, axis=ax))


def _on_axis(x: np.ndarray, ax: int, part: slice) -> np.ndarray:
    index = [slice(None)] * x.ndim
    index[ax] = part
    return x[tuple(index)].copy()


def _tensorflow(x: np.ndarray, begins: list[int], sizes: list[int]) -> np.ndarray:
    if len(begins) != x.ndim or len(sizes) != x.ndim:
        raise ValueError(f"Slice: TensorFlow slices need {x.ndim} begins and sizes, got {begins} and {sizes}")
    index = []
    for size, b, n in zip(x.shape, begins, sizes, strict=True):
        stop = size if n == -1 else b + n
        if not 0 <= b < stop <= size:
            raise ValueError(f"Slice: begin {b} with size {n} does not fit an axis of {size}")
        index.append(slice(b, stop))
    return x[tuple(index)].copy()


@kernel("tengine", "Slice", since=1)
def slice_op(x: np.ndarray, *, axis: int, slice_points: list[int] | None, begins: list[int] | None,
             sizes: list[int] | None, iscaffe: int, ismxnet: int, isonnx: int, begin: int, end: int,
             step: int) -> tuple[np.ndarray, ...]:
    if not (iscaffe or ismxnet or isonnx):
        return (_tensorflow(x, list(begins or []), list(sizes or [])),)
    ax = _axis(axis, x.ndim)
    size = x.shape[ax]
    if iscaffe:
        return _caffe(x, ax, list(slice_points or []))
    if ismxnet:
        if not 0 <= begin < end <= size:
            raise ValueError(f"Slice: MXNet slice [{begin}, {end}) does not fit an axis of {size}")
        return (_on_axis(x, ax, slice(begin, end)),)
    stop = min(end, size) if end > 0 else size + end
    if not 0 <= begin < stop:
        raise ValueError(f"Slice: ONNX slice from {begin} to {stop} is empty")
    return (_on_axis(x, ax, slice(begin, stop, max(step, 1))),)
