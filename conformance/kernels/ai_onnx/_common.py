"""Small helpers shared by the ai.onnx kernels (not kernels themselves)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def work_dtype(x: np.ndarray) -> np.dtype:
    """The dtype to compute in: half precision widens to float32, everything else stays."""
    if x.dtype == np.float16 or x.dtype.name == "bfloat16":
        return np.dtype(np.float32)
    return x.dtype


def legacy_broadcast(op: str, a: np.ndarray, b: np.ndarray, broadcast: int, axis: int | None) -> np.ndarray:
    """Reshape `b` for the opset-1/6 `broadcast`/`axis` rule: b's shape is a contiguous run of a's dims."""
    if not broadcast:
        if a.shape != b.shape:
            raise ValueError(f"{op}: shapes {a.shape} and {b.shape} differ and broadcast=0")
        return b
    if b.size == 1 and b.ndim <= a.ndim:  # a 1-element B ((), (1,), (1, 1) ...) is a scalar here
        return b.reshape(())
    start = a.ndim - b.ndim if axis is None else (axis + a.ndim if axis < 0 else axis)
    if start < 0 or start + b.ndim > a.ndim or a.shape[start:start + b.ndim] != b.shape:
        raise ValueError(f"{op}: B of shape {b.shape} does not match A {a.shape} at axis {start}")
    return b.reshape(b.shape + (1,) * (a.ndim - start - b.ndim))


def normalize_axes(op: str, axes: Sequence[int], rank: int) -> tuple[int, ...]:
    """Negative axes made positive; out-of-range or repeated axes raise ValueError."""
    out = []
    for a in axes:
        a = int(a)
        if not -rank <= a < rank:
            raise ValueError(f"{op}: axis {a} is out of range for rank {rank}")
        out.append(a + rank if a < 0 else a)
    if len(set(out)) != len(out):
        raise ValueError(f"{op}: repeated axes {list(axes)}")
    return tuple(out)


def reduction_axes(op: str, rank: int, axes: Sequence[int] | np.ndarray | None,
                   noop_with_empty_axes: int) -> tuple[int, ...]:
    """The axes a Reduce* op reduces, as numpy's `axis` tuple: every axis when `axes` is absent or empty, or
    none at all when noop_with_empty_axes is 1 (then only the op's elementwise steps remain); negative axes made
    positive, out-of-range or repeated ones raise ValueError. Versions with an `axes` attribute pass 0."""
    given = [] if axes is None else np.asarray(axes).reshape(-1).tolist()
    if not given:
        return () if noop_with_empty_axes else tuple(range(rank))
    return normalize_axes(op, given, rank)


def accumulator(x: np.ndarray) -> np.dtype:
    """The dtype a sum or product of `x` runs in: half precision in float32, other floats in their own width,
    signed integers in int64 and unsigned in uint64 (a result cast back to x's type then wraps as x's own
    two's-complement arithmetic would)."""
    if x.dtype.kind == "i":
        return np.dtype(np.int64)
    if x.dtype.kind in "ub":
        return np.dtype(np.uint64)
    return work_dtype(x)


def to_integer(op: str, y: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """A floating result converted to integer `dtype` as Cast does (truncation toward zero); a value that is not
    finite has no integer counterpart and raises ValueError."""
    if not np.all(np.isfinite(y)):
        raise ValueError(f"{op}: the result is not finite, which {dtype} cannot hold (undefined for integers)")
    return np.asarray(np.trunc(y)).astype(dtype)
