"""MeanVarianceNormalization-1 (onnxruntime's default domain, onnx's experimental op): an [N, C, H, W] tensor less its
mean over N, H and W (and C with across_channels = 1), divided by the standard deviation (plus 1e-9, as version 9's
body) when normalize_variance = 1. onnxruntime, the one implementation, reduces over the batch axis too, as version
9's default axes [0, 2, 3] do (Caffe's MVN, which the text recalls, normalizes each sample alone)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype
from conformance.kernels.ai_onnx.mean_variance_normalization import EPSILON
from conformance.kernels.registry import kernel


@kernel("ai.onnx.ort", "MeanVarianceNormalization", since=1)
def mean_variance_normalization(x: np.ndarray, *, across_channels: int,
                                normalize_variance: int) -> tuple[np.ndarray, ...]:
    if x.ndim != 4:
        raise ValueError(f"MeanVarianceNormalization: a 4-D [N, C, H, W] input, got {x.shape}")
    axes = (0, 1, 2, 3) if across_channels else (0, 2, 3)
    xw = x.astype(work_dtype(x), copy=False)
    mean = np.mean(xw, axis=axes, keepdims=True)
    y = xw - mean
    if normalize_variance:
        variance = np.mean(xw * xw, axis=axes, keepdims=True) - mean * mean
        y = y / (np.sqrt(variance) + np.asarray(EPSILON, dtype=xw.dtype))
    return (y.astype(x.dtype),)
