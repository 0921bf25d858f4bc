"""Slice: starts/ends/axes attributes (opset 1), inputs with optional axes and steps (10+); ONNX clamping."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from conformance.kernels.ai_onnx._common import normalize_axes
from conformance.kernels.registry import kernel


def _bound(value: int, dim: int, step: int, is_end: bool) -> int | None:
    """Clamp a start or end the way ONNX does; None stands for 'before index 0' on a backward end."""
    if value < 0:
        value += dim
    if step > 0:
        return min(max(value, 0), dim)
    value = min(max(value, -1), dim - 1)
    return None if is_end and value < 0 else value


def _slice(data: np.ndarray, starts: Sequence[int], ends: Sequence[int],
           axes: Sequence[int] | None, steps: Sequence[int] | None) -> np.ndarray:
    if len(starts) != len(ends):
        raise ValueError(f"Slice: starts has {len(starts)} values but ends has {len(ends)}")
    ax = normalize_axes("Slice", range(len(starts)) if axes is None else axes, data.ndim)
    if len(ax) != len(starts):
        raise ValueError(f"Slice: axes has {len(ax)} values but starts has {len(starts)}")
    st = [1] * len(starts) if steps is None else [int(s) for s in steps]
    if len(st) != len(starts) or 0 in st:
        raise ValueError(f"Slice: steps {st} must have {len(starts)} non-zero values")
    index = [slice(None)] * data.ndim
    for a, s, e, step in zip(ax, starts, ends, st, strict=True):
        dim = data.shape[a]
        index[a] = slice(_bound(int(s), dim, step, False), _bound(int(e), dim, step, True), step)
    return data[tuple(index)].copy()


@kernel("ai.onnx", "Slice", since=1, until=9)
def slice_attr(data: np.ndarray, *, starts: list[int] | None, ends: list[int] | None,
               axes: list[int] | None) -> tuple[np.ndarray, ...]:
    if starts is None or ends is None:
        raise ValueError("Slice: attributes starts and ends are required in opset 1")
    return (_slice(data, starts, ends, axes, None),)


def _ints(v: np.ndarray | None) -> list[int] | None:
    return None if v is None else np.asarray(v).reshape(-1).tolist()


@kernel("ai.onnx", "Slice", since=10)
def slice_(data: np.ndarray, starts: np.ndarray, ends: np.ndarray, axes: np.ndarray | None,
           steps: np.ndarray | None) -> tuple[np.ndarray, ...]:
    return (_slice(data, _ints(starts) or [], _ints(ends) or [], _ints(axes), _ints(steps)),)
