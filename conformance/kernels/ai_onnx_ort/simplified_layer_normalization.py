"""SimplifiedLayerNormalization-1 (onnxruntime's default domain; an RMS norm): y = x / sqrt(mean(x^2) + epsilon) *
scale over the axes from `axis` on, computed in the stash type; inv_std_var is 1 / sqrt(mean(x^2) + epsilon)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import stash_dtype
from conformance.kernels.ai_onnx.layer_normalization import unidirectional
from conformance.kernels.registry import kernel


@kernel("ai.onnx.ort", "SimplifiedLayerNormalization", since=1)
def simplified_layer_normalization(x: np.ndarray, scale: np.ndarray, *, axis: int, epsilon: float,
                                   stash_type: int) -> tuple[np.ndarray, ...]:
    op = "SimplifiedLayerNormalization"
    r = x.ndim
    if not -r <= axis < r:
        raise ValueError(f"{op}: axis {axis} is out of range for X of rank {r}")
    axes = tuple(range(axis + r if axis < 0 else axis, r))
    u = stash_dtype(op, stash_type)
    xu = x.astype(u)
    inv = np.reciprocal(np.sqrt(np.mean(xu * xu, axis=axes, keepdims=True, dtype=u) + np.asarray(epsilon, u)))
    y = (xu * inv).astype(x.dtype) * unidirectional(op, "scale", scale, x.shape)
    return (np.asarray(y, dtype=x.dtype), np.asarray(inv, dtype=u))
