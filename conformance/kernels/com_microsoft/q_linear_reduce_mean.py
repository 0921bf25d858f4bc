"""com.microsoft QLinearReduceMean: ReduceMean of dequantized data over `axes`, quantized with the reduced scale.

onnxruntime has no CPU kernel for this op (it serves the NNAPI execution provider). The registry defines it as the
three ops it fuses: DequantizeLinear (data_scale, data_zero_point), ReduceMean(axes, keepdims), QuantizeLinear
(reduced_scale, reduced_zero_point): here each value dequantized in float32, the mean taken in float64 and rounded
to float32, then divided by reduced_scale, rounded half to even, plus reduced_zero_point, saturated.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft._qlinear import dequantized, eight_bit, f32, quantized, scalar_param
from conformance.kernels.registry import kernel


@kernel("com.microsoft", "QLinearReduceMean", since=1)
def q_linear_reduce_mean(data: np.ndarray, data_scale: np.ndarray, data_zero_point: np.ndarray | None,
                         reduced_scale: np.ndarray, reduced_zero_point: np.ndarray | None, *, axes: list[int],
                         keepdims: int) -> tuple[np.ndarray, ...]:
    op = "QLinearReduceMean"
    dtype = eight_bit(op, data)
    r = data.ndim
    if any(not -r <= a < r for a in axes) or len({a % max(r, 1) for a in axes}) != len(axes):
        raise ValueError(f"{op}: axes {axes} must be distinct axes of a rank-{r} tensor")
    ax = tuple(sorted(a % r for a in axes))
    if any(data.shape[a] == 0 for a in ax):
        raise ValueError(f"{op}: the mean over an empty axis is undefined")
    values = dequantized(data, scalar_param(op, "data_scale", data_scale),
                         scalar_param(op, "data_zero_point", data_zero_point, dtype))
    mean = f32(values.astype(np.float64).mean(axis=ax, keepdims=bool(keepdims)))
    return (quantized(mean, scalar_param(op, "reduced_scale", reduced_scale),
                      scalar_param(op, "reduced_zero_point", reduced_zero_point, dtype), dtype),)
