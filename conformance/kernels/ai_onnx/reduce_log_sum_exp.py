"""ReduceLogSumExp: log(sum(exp(x))) over `axes` (all when absent); axes attribute before 18, input from 18.

Computed as m + log(sum(exp(x - m))) with m the finite maximum of each reduced set (0 when it has none), so
large inputs do not overflow; an empty set gives minus infinity. Floats compute in their own precision
(float32 for half precision). Integers (versions 1 to 18) compute in double and are truncated toward zero,
as onnx's function body does (Cast to double, Exp, ReduceSum, Log, CastLike).
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import reduction_axes, to_integer, work_dtype
from conformance.kernels.registry import kernel


def _log_sum_exp(data: np.ndarray, ax: tuple[int, ...], keepdims: int) -> np.ndarray:
    x = data.astype(np.float64 if data.dtype.kind in "iu" else work_dtype(data))
    m = np.max(x, axis=ax, keepdims=True, initial=-np.inf)
    m = np.where(np.isfinite(m), m, 0).astype(x.dtype)
    with np.errstate(divide="ignore"):
        y = np.log(np.sum(np.exp(x - m), axis=ax, keepdims=True)) + m
    if not keepdims:
        y = np.squeeze(y, axis=ax)
    if data.dtype.kind in "iu":
        return to_integer("ReduceLogSumExp", y, data.dtype)
    return np.asarray(y).astype(data.dtype)


@kernel("ai.onnx", "ReduceLogSumExp", since=1, until=17)
def reduce_log_sum_exp_attr(data: np.ndarray, *, axes: list[int] | None, keepdims: int) -> tuple[np.ndarray, ...]:
    return (_log_sum_exp(data, reduction_axes("ReduceLogSumExp", data.ndim, axes, 0), keepdims),)


@kernel("ai.onnx", "ReduceLogSumExp", since=18)
def reduce_log_sum_exp(data: np.ndarray, axes: np.ndarray | None, *, keepdims: int,
                       noop_with_empty_axes: int) -> tuple[np.ndarray, ...]:
    return (_log_sum_exp(data, reduction_axes("ReduceLogSumExp", data.ndim, axes, noop_with_empty_axes),
                         keepdims),)
