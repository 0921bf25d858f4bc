"""GroupNormalization (18, 21): statistics per instance per group of channels; version 18 scales and shifts per
group (scale and bias of shape num_groups) and computes in X's type, version 21 per channel (shape C) after stage
one in the stash type.

The text gives no way to compute the variance; the function body (what a runtime without a kernel executes) takes
E[x^2] - E[x]^2, each step rounded to the computing type, and so does this kernel: in float16 the two-pass form
differs by several ulps.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import stash_dtype
from conformance.kernels.registry import kernel


def _grouped(op: str, x: np.ndarray, num_groups: int, epsilon: float, dtype: np.dtype) -> np.ndarray:
    """X normalized per (n, group), as [N, G, C/G * spatial] in X's type."""
    if x.ndim < 2:
        raise ValueError(f"{op}: X {x.shape} needs N and C dims")
    n, c = x.shape[:2]
    if num_groups < 1 or c % num_groups:
        raise ValueError(f"{op}: num_groups {num_groups} does not divide C = {c}")
    xu = x.reshape(n, num_groups, -1).astype(dtype)
    accumulate = np.float64 if dtype == np.float64 else np.float32  # a mean is one rounding to `dtype`
    mean = np.mean(xu, axis=2, keepdims=True, dtype=accumulate).astype(dtype)
    mean_of_square = np.mean(xu * xu, axis=2, keepdims=True, dtype=accumulate).astype(dtype)
    variance = mean_of_square - mean * mean
    std = np.sqrt(variance + np.asarray(epsilon, dtype=dtype))
    return np.asarray(((xu - mean) / std).astype(x.dtype))


@kernel("ai.onnx", "GroupNormalization", since=18, until=20)
def group_normalization_per_group(x: np.ndarray, scale: np.ndarray, bias: np.ndarray, *, epsilon: float,
                                  num_groups: int) -> tuple[np.ndarray, ...]:
    op = "GroupNormalization"
    if scale.shape != (num_groups,) or bias.shape != (num_groups,):
        raise ValueError(f"{op}: scale {scale.shape} and bias {bias.shape} must be ({num_groups},) in version 18")
    y = _grouped(op, x, num_groups, epsilon, x.dtype)
    y = y * scale.reshape(1, -1, 1) + bias.reshape(1, -1, 1)
    return (y.reshape(x.shape).astype(x.dtype),)


@kernel("ai.onnx", "GroupNormalization", since=21)
def group_normalization(x: np.ndarray, scale: np.ndarray, bias: np.ndarray, *, epsilon: float, num_groups: int,
                        stash_type: int) -> tuple[np.ndarray, ...]:
    op = "GroupNormalization"
    c = x.shape[1] if x.ndim >= 2 else -1
    if scale.shape != (c,) or bias.shape != (c,):
        raise ValueError(f"{op}: scale {scale.shape} and bias {bias.shape} must be ({c},) (one per channel)")
    y = _grouped(op, x, num_groups, epsilon, stash_dtype(op, stash_type)).reshape(x.shape)
    channel = (1, c) + (1,) * (x.ndim - 2)
    return ((y * scale.reshape(channel) + bias.reshape(channel)).astype(x.dtype),)
