"""Softmax: opset 1/11 coerce the input to 2-D at `axis` and normalise rows; opset 13 normalises along `axis`."""

from __future__ import annotations

import math

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype
from conformance.kernels.registry import kernel


def _softmax(x: np.ndarray, axis: int) -> np.ndarray:
    """exp(x - max) / sum along `axis`, in x's dtype; x is only read (the result is a fresh array)."""
    y: np.ndarray = x - np.max(x, axis=axis, keepdims=True)
    np.exp(y, out=y)
    y /= np.sum(y, axis=axis, keepdims=True)
    return y


def _check_axis(x: np.ndarray, axis: int, allow_rank: bool) -> int:
    hi = x.ndim if allow_rank else x.ndim - 1
    if not -x.ndim <= axis <= hi:
        raise ValueError(f"Softmax: axis {axis} out of range for rank {x.ndim}")
    return axis + x.ndim if axis < 0 else axis


@kernel("ai.onnx", "Softmax", since=1, until=12)
def softmax_2d(x: np.ndarray, *, axis: int) -> tuple[np.ndarray, ...]:
    ax = _check_axis(x, axis, allow_rank=True)
    flat = x.reshape(math.prod(x.shape[:ax]), math.prod(x.shape[ax:])).astype(work_dtype(x), copy=False)
    return (_softmax(flat, 1).reshape(x.shape).astype(x.dtype, copy=False),)


@kernel("ai.onnx", "Softmax", since=13)
def softmax(x: np.ndarray, *, axis: int) -> tuple[np.ndarray, ...]:
    ax = _check_axis(x, axis, allow_rank=False)
    return (_softmax(x.astype(work_dtype(x), copy=False), ax).astype(x.dtype, copy=False),)
