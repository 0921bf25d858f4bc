"""Crop (onnxruntime's default domain, onnx's experimental op): an [N, C, H, W] image cut to `scale` = (height, width)
from (top, left) = (border[1], border[0]), or, without scale, with every border removed. Borders and scale count
pixels (never negative); the crop may be empty, as in onnxruntime's kernel."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx.ort", "Crop", since=1)
def crop(x: np.ndarray, *, border: list[int] | None, scale: list[int] | None) -> tuple[np.ndarray, ...]:
    if x.ndim != 4 or border is None or len(border) != 4:
        raise ValueError(f"Crop: a 4-D input and four borders, got {x.shape} and {border}")
    if min(border) < 0 or (scale is not None and min(scale, default=0) < 0):
        raise ValueError(f"Crop: border {border} and scale {scale} count pixels and cannot be negative")
    left, top, right, bottom = border
    height, width = x.shape[2:]
    if scale is not None:
        if len(scale) != 2 or left + scale[1] > width or top + scale[0] > height:
            raise ValueError(f"Crop: scale {scale} from ({top}, {left}) leaves the {height}x{width} image")
        return (x[:, :, top:top + scale[0], left:left + scale[1]].copy(),)
    if left + right > width or top + bottom > height:
        raise ValueError(f"Crop: borders {border} leave nothing of the {height}x{width} image")
    return (x[:, :, top:height - bottom, left:width - right].copy(),)
