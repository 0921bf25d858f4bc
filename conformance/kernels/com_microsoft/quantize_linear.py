"""com.microsoft QuantizeLinear: y = saturate(round_half_even(x / y_scale) + y_zero_point).

The output type is the zero point's (uint8 when it is omitted): int8, uint8, int16 or uint16.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft._quant import QUANT_TYPES, param_shape
from conformance.kernels.registry import kernel


@kernel("com.microsoft", "QuantizeLinear", since=1)
def quantize_linear(x: np.ndarray, y_scale: np.ndarray, y_zero_point: np.ndarray | None, *,
                    axis: int | None) -> tuple[np.ndarray, ...]:
    out_type = np.dtype(np.uint8) if y_zero_point is None else y_zero_point.dtype
    if out_type not in QUANT_TYPES:
        raise ValueError(f"QuantizeLinear: output type must be one of {[str(t) for t in QUANT_TYPES]}, got {out_type}")
    if x.dtype not in (np.float32, np.float16):
        raise ValueError(f"QuantizeLinear: x must be float or float16, got {x.dtype}")
    shape = param_shape("QuantizeLinear", x, y_scale, y_zero_point, axis)
    scale = y_scale.astype(np.float32).reshape(shape)
    q = np.rint(x.astype(np.float32) / scale)
    if y_zero_point is not None:
        q += y_zero_point.astype(np.float32).reshape(shape)
    info = np.iinfo(out_type)
    return (np.clip(q, info.min, info.max).astype(out_type),)
