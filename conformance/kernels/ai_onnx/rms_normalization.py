"""RMSNormalization (23): X / sqrt(mean(X^2 over axes [axis, r)) + epsilon) in the stash type, cast to X's type
(T), then times scale in the output type V."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import stash_dtype
from conformance.kernels.ai_onnx.layer_normalization import unidirectional
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "RMSNormalization", since=23)
def rms_normalization(x: np.ndarray, scale: np.ndarray, *, axis: int, epsilon: float,
                      stash_type: int) -> tuple[np.ndarray, ...]:
    op = "RMSNormalization"
    r = x.ndim
    if not -r <= axis < r:
        raise ValueError(f"{op}: axis {axis} is out of range for X of rank {r}")
    u = stash_dtype(op, stash_type)
    axes = tuple(range(axis % r, r))
    xu = x.astype(u)
    accumulate = np.float64 if u == np.float64 else np.float32  # a mean is one rounding to `u`
    mean_square = np.mean(xu * xu, axis=axes, keepdims=True, dtype=accumulate).astype(u)
    normalized = (xu / np.sqrt(mean_square + np.asarray(epsilon, dtype=u))).astype(x.dtype)
    v = scale.dtype
    y = normalized.astype(v) * unidirectional(op, "scale", scale, x.shape)
    return (np.asarray(y, dtype=v),)
