"""MeanVarianceNormalization (9, 13): (X - E[X]) / (sqrt(E[X^2] - E[X]^2) + 1e-9) over `axes`, as the op's function
body computes it (the text's formula without its epsilon would give 0 / 0 on a constant slice). Empty axes reduce
over every axis, as the function body's ReduceMean does. Half precision is computed in float32."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import normalize_axes, work_dtype
from conformance.kernels.registry import kernel

EPSILON = 1e-9  # the function body's constant, added to the standard deviation


@kernel("ai.onnx", "MeanVarianceNormalization", since=9)
def mean_variance_normalization(x: np.ndarray, *, axes: list[int]) -> tuple[np.ndarray, ...]:
    ax = normalize_axes("MeanVarianceNormalization", axes, x.ndim) if axes else tuple(range(x.ndim))
    xw = x.astype(work_dtype(x), copy=False)
    mean = np.mean(xw, axis=ax, keepdims=True)
    variance = np.mean(xw * xw, axis=ax, keepdims=True) - mean * mean
    return (((xw - mean) / (np.sqrt(variance) + np.asarray(EPSILON, dtype=xw.dtype))).astype(x.dtype),)
