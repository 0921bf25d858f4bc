"""DynamicQuantizeLinear (11): uint8 quantization with a scale and zero point taken from x's range widened to hold
0, all in float32: y_scale = (max(0, max x) - min(0, min x)) / 255, y_zero_point = round(clip(-min / y_scale, 0,
255)), y = saturate(round(x / y_scale) + y_zero_point), rounding half to even. An all-zero (or empty) x has the
text's y_scale 0, and y and y_zero_point 0."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import round_add_saturate
from conformance.kernels.registry import kernel

QMAX = np.float32(255)


@kernel("ai.onnx", "DynamicQuantizeLinear", since=11)
def dynamic_quantize_linear(x: np.ndarray) -> tuple[np.ndarray, ...]:
    high = np.float32(np.max(x, initial=np.float32(0)))
    low = np.float32(np.min(x, initial=np.float32(0)))
    scale = np.float32((high - low) / QMAX)
    if scale == 0:  # x is all zeros: the text's zero point and quotients would be 0 / 0
        zeros = np.zeros(x.shape, np.uint8)
        return zeros, np.asarray(scale, np.float32), np.asarray(0, np.uint8)
    zero_point = round_add_saturate(np.asarray(np.clip(np.float32(0) - low / scale, 0, QMAX)), None, np.dtype(np.uint8))
    y = round_add_saturate((x.astype(np.float32) / scale).astype(np.float32), zero_point, np.dtype(np.uint8))
    return y, np.asarray(scale, np.float32), np.asarray(zero_point, np.uint8)
