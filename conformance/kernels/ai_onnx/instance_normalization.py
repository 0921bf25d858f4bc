"""InstanceNormalization (1, 6, 22): per (n, c), normalize over the spatial dims, then scale * x + B per channel.
Half precision is computed in float32."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import normalized, work_dtype
from conformance.kernels.registry import kernel


def _instance_norm(x: np.ndarray, scale: np.ndarray, bias: np.ndarray, epsilon: float) -> np.ndarray:
    if x.ndim < 3:
        raise ValueError(f"InstanceNormalization: input {x.shape} needs N, C and at least one spatial dim")
    c = x.shape[1]
    if scale.shape != (c,) or bias.shape != (c,):
        raise ValueError(f"InstanceNormalization: scale {scale.shape} and B {bias.shape} must be ({c},)")
    wt = work_dtype(x)
    channel = (1, c) + (1,) * (x.ndim - 2)
    y = normalized(x, tuple(range(2, x.ndim)), epsilon, wt)
    return np.asarray((y * scale.astype(wt).reshape(channel) + bias.astype(wt).reshape(channel)).astype(x.dtype))


@kernel("ai.onnx", "InstanceNormalization", since=1, until=5)
def instance_normalization_4d(x: np.ndarray, scale: np.ndarray, bias: np.ndarray, *,
                              epsilon: float) -> tuple[np.ndarray, ...]:
    if x.ndim != 4:
        raise ValueError(f"InstanceNormalization: input {x.shape} must be 4-D (N, C, H, W) before opset 6")
    return (_instance_norm(x, scale, bias, epsilon),)


@kernel("ai.onnx", "InstanceNormalization", since=6)
def instance_normalization(x: np.ndarray, scale: np.ndarray, bias: np.ndarray, *,
                           epsilon: float) -> tuple[np.ndarray, ...]:
    return (_instance_norm(x, scale, bias, epsilon),)
