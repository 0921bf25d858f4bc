"""com.microsoft QLinearSoftmax: softmax of dequantized X along `axis`, quantized with y_scale and y_zero_point.

Computed as onnxruntime's CPU kernel computes it, which differs from dequantize -> Softmax -> quantize:
- the exponentials come from a 256-entry table built in double precision, exp((x - max + shift) * X_scale), where
  max is the row's largest value (so x_zero_point never matters: softmax ignores a common shift) and
  shift = max(0, ln(FLT_MAX / D) - 5) / X_scale keeps the sum of D of them finite; the table is rounded to float32;
- the row sum is accumulated in float32, element after element;
- the output is round_half_even(e * floor(1 / y_scale) / sum) + y_zero_point, saturated: y_scale enters through
  floor(1 / y_scale), so 1/256 and 1/255 give 256 and 255 steps of probability.
Rows are the last axis after moving `axis` there (opset >= 13), or the input coerced to 2-D at `axis` (opset < 13).
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft._qlinear import eight_bit, f32, saturate, scalar_param
from conformance.kernels.registry import kernel

_FLOAT_MAX = float(np.finfo(np.float32).max)


def _softmax_rows(rows: np.ndarray, x_scale: float, y_steps: np.float32, y_zero_point: int,
                  dtype: np.dtype) -> np.ndarray:
    n, d = rows.shape
    if n == 0 or d == 0:
        return np.zeros(rows.shape, dtype)
    shift = max(0.0, float(np.log(_FLOAT_MAX / d)) - 5.0) / x_scale
    xi = rows.astype(np.int64)
    index = 255 - xi.max(axis=1, keepdims=True) + xi  # the table position onnxruntime reads, in [0, 255]
    e = np.exp((index.astype(np.float64) - 255.0 + shift) * x_scale).astype(np.float32)
    total = np.cumsum(e, axis=1, dtype=np.float32)[:, -1:]
    q = np.rint(f32(f32(e * y_steps) / total)).astype(np.float64) + y_zero_point
    return saturate(q, dtype)


@kernel("com.microsoft", "QLinearSoftmax", since=1)
def q_linear_softmax(x: np.ndarray, x_scale: np.ndarray, x_zero_point: np.ndarray | None, y_scale: np.ndarray,
                     y_zero_point: np.ndarray, *, axis: int, opset: int) -> tuple[np.ndarray, ...]:
    op = "QLinearSoftmax"
    dtype = eight_bit(op, x)
    xs = float(np.float32(scalar_param(op, "X_scale", x_scale)))
    scalar_param(op, "x_zero_point", x_zero_point, dtype)
    ys = scalar_param(op, "y_scale", y_scale)
    yz = int(scalar_param(op, "y_zero_point", y_zero_point, dtype))
    if x.ndim == 0:
        raise ValueError(f"{op}: X must have rank >= 1")
    if not -x.ndim <= axis < x.ndim:
        raise ValueError(f"{op}: axis {axis} out of range for rank {x.ndim}")
    ax = axis % x.ndim
    steps = np.float32(np.floor(np.float32(1.0) / np.float32(ys)))
    if opset < 13:
        d = int(np.prod(x.shape[ax:]))
        return (_softmax_rows(x.reshape(-1, d) if d else x.reshape(0, 0), xs, steps, yz, dtype).reshape(x.shape),)
    moved = np.moveaxis(x, ax, -1)
    out = _softmax_rows(moved.reshape(-1, x.shape[ax]), xs, steps, yz, dtype).reshape(moved.shape)
    return (np.ascontiguousarray(np.moveaxis(out, -1, ax)),)
