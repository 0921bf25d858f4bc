"""Small helpers shared by the ai.onnx kernels (not kernels themselves)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

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


def round_add_saturate(scaled: np.ndarray, zero_point: np.ndarray | None, dtype: np.dtype) -> np.ndarray:
    """`saturate(round(scaled) + zero_point)` as `dtype` (an integer type): rounding half to even first, then
    the zero point added, then values clipped to the type's range (the quantizers' output rule)."""
    info = np.iinfo(dtype)
    y = np.rint(np.asarray(scaled, dtype=np.float64))
    if zero_point is not None:
        y = y + np.asarray(zero_point, dtype=np.float64)
    return np.asarray(np.clip(y, info.min, info.max).astype(dtype))


def normalized(x: np.ndarray, axes: tuple[int, ...], epsilon: float, dtype: np.dtype) -> np.ndarray:
    """(x - mean) / sqrt(variance + epsilon) over `axes`, computed in `dtype` (the variance as the mean of squared
    deviations, the two-pass form the operators' texts write)."""
    xs = x.astype(dtype, copy=False)
    mean = np.mean(xs, axis=axes, keepdims=True, dtype=dtype)
    deviation = xs - mean
    variance = np.mean(deviation * deviation, axis=axes, keepdims=True, dtype=dtype)
    return np.asarray(deviation / np.sqrt(variance + np.asarray(epsilon, dtype=dtype)))


STASH_DTYPES: dict[int, np.dtype[Any]] = {1: np.dtype(np.float32), 10: np.dtype(np.float16), 11: np.dtype(np.float64)}


def stash_dtype(op: str, stash_type: int) -> np.dtype:
    """The numpy type of a `stash_type` (a TensorProto code); bfloat16 (16) has none, so the case is unsupported."""
    if stash_type in STASH_DTYPES:
        return STASH_DTYPES[stash_type]
    from conformance.backends.protocol import Unsupported

    raise Unsupported(f"{op}: stash_type {stash_type} has no numpy type")


def quantization_layout(op: str, name: str, value: np.ndarray, shape: tuple[int, ...], axis: int,
                        block_size: int = 0) -> np.ndarray:
    """A scale or zero point shaped to broadcast against an input of `shape`: per tensor (one element of rank <= 1),
    per axis (1-D of the axis' length) or, with block_size > 0, blocked (the input's rank, ceil(D / block_size)
    along axis, each value repeated over its block)."""
    r = len(shape)
    if block_size == 0 and value.ndim <= 1 and value.size == 1:
        return value.reshape(())
    if not -r <= axis < r:
        raise ValueError(f"{op}: axis {axis} is out of range for rank {r}")
    a = axis % r
    if block_size == 0:
        if value.ndim != 1 or value.shape[0] != shape[a]:
            raise ValueError(f"{op}: {name} {value.shape} is neither per tensor nor per axis {a} of {shape}")
        return value.reshape([-1 if i == a else 1 for i in range(r)])
    want = tuple(-(-d // block_size) if i == a else d for i, d in enumerate(shape))
    if block_size < 0 or value.shape != want:
        raise ValueError(f"{op}: blocked {name} {value.shape} must be {want} for {shape}, axis {a}, block {block_size}")
    return np.repeat(value, block_size, axis=a).take(np.arange(shape[a]), axis=a)
