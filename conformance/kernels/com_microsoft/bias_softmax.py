"""com.microsoft BiasSoftmax: softmax(data + bias) with data coerced to 2-D at `axis` (opset-11 Softmax: one row
per index of the dims before axis, normalised over all the dims from axis on).

bias holds B rows of that length (its size is B times the row length) and data's R rows a whole number of them.
With is_inner_broadcast each bias row serves R / B consecutive data rows (the bias lacks inner batch dims: row i
takes bias row i // (R / B)); without it the bias rows repeat over the outer dims (row i takes bias row i % B).
Computed in the work dtype, rounded once.
"""

from __future__ import annotations

import math

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype
from conformance.kernels.registry import kernel


@kernel("com.microsoft", "BiasSoftmax", since=1)
def bias_softmax(data: np.ndarray, bias: np.ndarray, *, axis: int, is_inner_broadcast: int
                 ) -> tuple[np.ndarray, ...]:
    r = data.ndim
    if not -r <= axis < r:
        raise ValueError(f"BiasSoftmax: axis {axis} out of range for rank {r}")
    ax = axis + r if axis < 0 else axis
    rows, length = math.prod(data.shape[:ax]), math.prod(data.shape[ax:])
    if length == 0 or rows == 0:
        return (data.copy(),)
    if bias.size % length or bias.size == 0 or rows % (bias.size // length):
        raise ValueError(f"BiasSoftmax: bias {bias.shape} does not hold whole rows of {length} values that repeat"
                         f" over data's {rows} rows")
    wt = work_dtype(data)
    brows = bias.size // length
    b = bias.astype(wt).reshape(brows, length)
    b = np.repeat(b, rows // brows, axis=0) if is_inner_broadcast else np.tile(b, (rows // brows, 1))
    v = data.astype(wt).reshape(rows, length) + b
    v = v - np.max(v, axis=1, keepdims=True)
    e = np.exp(v)
    return ((e / np.sum(e, axis=1, keepdims=True)).reshape(data.shape).astype(data.dtype),)
