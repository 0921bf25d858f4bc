"""Reshape: new shape from an attribute (opset 1) or an int64 input (5+); 0 copies a dim, -1 infers one."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from conformance.kernels.registry import kernel


def _target_shape(data: np.ndarray, shape: Sequence[int], allowzero: int) -> tuple[int, ...]:
    dims = [int(d) for d in shape]
    if dims.count(-1) > 1:
        raise ValueError(f"Reshape: more than one -1 in shape {dims}")
    if allowzero and 0 in dims and -1 in dims:
        raise ValueError(f"Reshape: shape {dims} has both 0 and -1 with allowzero=1")
    out = []
    for i, d in enumerate(dims):
        if d == 0 and not allowzero:
            if i >= data.ndim:
                raise ValueError(f"Reshape: 0 at position {i} but data has rank {data.ndim}")
            d = data.shape[i]
        elif d < -1:
            raise ValueError(f"Reshape: invalid dim {d} in shape {dims}")
        out.append(d)
    if -1 in out:
        known = math.prod(d for d in out if d != -1)
        if known == 0 or data.size % known:
            raise ValueError(f"Reshape: cannot infer -1 in {dims} for {data.size} elements")
        out[out.index(-1)] = data.size // known
    if math.prod(out) != data.size:
        raise ValueError(f"Reshape: shape {dims} does not fit {data.size} elements of {data.shape}")
    return tuple(out)


@kernel("ai.onnx", "Reshape", since=1, until=4)
def reshape_attr(data: np.ndarray, *, shape: list[int] | None) -> tuple[np.ndarray, ...]:
    if shape is None:
        raise ValueError("Reshape: attribute shape is required in opset 1")
    return (data.reshape(_target_shape(data, shape, 0)).copy(),)


@kernel("ai.onnx", "Reshape", since=5, until=13)
def reshape_v5(data: np.ndarray, shape: np.ndarray) -> tuple[np.ndarray, ...]:
    return reshape(data, shape, allowzero=0)  # before opset 14 a 0 always copies the input dim


@kernel("ai.onnx", "Reshape", since=14)
def reshape(data: np.ndarray, shape: np.ndarray, *, allowzero: int) -> tuple[np.ndarray, ...]:
    if np.ndim(shape) != 1:
        raise ValueError(f"Reshape: shape input must be 1-D, got shape {np.shape(shape)}")
    return (data.reshape(_target_shape(data, np.asarray(shape).tolist(), allowzero)).copy(),)
