"""ReduceLogSum: natural log of the sum over `axes` (all when absent); axes attribute before 18, input from 18.

Floats: the sum in the input's precision (float32 for half precision), then its log; an empty set or a zero
sum gives minus infinity, a negative sum NaN. Integers (versions 1 to 18): the exact sum's log in double,
truncated toward zero as Cast converts it; a sum <= 0 has no integer log and raises (onnx: undefined).
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import accumulator, reduction_axes, to_integer
from conformance.kernels.registry import kernel


def _log_sum(data: np.ndarray, ax: tuple[int, ...], keepdims: int) -> np.ndarray:
    total = np.asarray(np.sum(data, axis=ax, keepdims=bool(keepdims), dtype=accumulator(data)))
    if data.dtype.kind in "iu":
        with np.errstate(divide="ignore", invalid="ignore"):
            return to_integer("ReduceLogSum", np.log(total.astype(np.float64)), data.dtype)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray(np.log(total)).astype(data.dtype)


@kernel("ai.onnx", "ReduceLogSum", since=1, until=17)
def reduce_log_sum_attr(data: np.ndarray, *, axes: list[int] | None, keepdims: int) -> tuple[np.ndarray, ...]:
    return (_log_sum(data, reduction_axes("ReduceLogSum", data.ndim, axes, 0), keepdims),)


@kernel("ai.onnx", "ReduceLogSum", since=18)
def reduce_log_sum(data: np.ndarray, axes: np.ndarray | None, *, keepdims: int,
                   noop_with_empty_axes: int) -> tuple[np.ndarray, ...]:
    return (_log_sum(data, reduction_axes("ReduceLogSum", data.ndim, axes, noop_with_empty_axes), keepdims),)
