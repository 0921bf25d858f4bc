"""LayerNormalization (17): stage one (mean, variance, normalization over axes [axis, r)) in the stash type, the
normalized values cast back to X's type; stage two (Scale, B) in X's type. Mean and InvStdDev are in the stash type."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import stash_dtype
from conformance.kernels.registry import kernel


def unidirectional(op: str, name: str, param: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """`param` checked to broadcast to `shape` without changing it."""
    if param.ndim > len(shape) or any(p not in (1, s) for p, s in zip(param.shape[::-1], shape[::-1], strict=False)):
        raise ValueError(f"{op}: {name} {param.shape} does not broadcast to X {shape}")
    return param


@kernel("ai.onnx", "LayerNormalization", since=17)
def layer_normalization(x: np.ndarray, scale: np.ndarray, bias: np.ndarray | None, *, axis: int, epsilon: float,
                        stash_type: int) -> tuple[np.ndarray, ...]:
    op = "LayerNormalization"
    r = x.ndim
    if not -r <= axis < r:
        raise ValueError(f"{op}: axis {axis} is out of range for X of rank {r}")
    a = axis + r if axis < 0 else axis
    u = stash_dtype(op, stash_type)
    axes = tuple(range(a, r))
    xu = x.astype(u)
    mean = np.mean(xu, axis=axes, keepdims=True, dtype=u)
    deviation = xu - mean
    variance = np.mean(deviation * deviation, axis=axes, keepdims=True, dtype=u)
    std = np.sqrt(variance + np.asarray(epsilon, dtype=u))
    y = (deviation / std).astype(x.dtype) * unidirectional(op, "Scale", scale, x.shape)
    if bias is not None:
        y = y + unidirectional(op, "B", bias, x.shape)
    inv_std = np.asarray(np.reciprocal(std), dtype=u)
    return (np.asarray(y, dtype=x.dtype), np.asarray(mean, dtype=u), inv_std)
