"""LogSoftmax: x - max - log(sum(exp(x - max))); opset 1/11 per row of the input coerced to 2-D at `axis`,
opset 13 along `axis`."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import as_rows, checked_axis, work_dtype
from conformance.kernels.registry import kernel


def _log_softmax(x: np.ndarray, axis: int) -> np.ndarray:
    shifted = x - np.max(x, axis=axis, keepdims=True)
    return np.asarray(shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True)))


@kernel("ai.onnx", "LogSoftmax", since=1, until=12)
def log_softmax_2d(x: np.ndarray, *, axis: int) -> tuple[np.ndarray, ...]:
    ax = checked_axis("LogSoftmax", axis, x.ndim)
    y = _log_softmax(as_rows(x, ax).astype(work_dtype(x), copy=False), 1)
    return (y.reshape(x.shape).astype(x.dtype, copy=False),)


@kernel("ai.onnx", "LogSoftmax", since=13)
def log_softmax(x: np.ndarray, *, axis: int) -> tuple[np.ndarray, ...]:
    ax = checked_axis("LogSoftmax", axis, x.ndim)
    return (_log_softmax(x.astype(work_dtype(x), copy=False), ax).astype(x.dtype, copy=False),)
