"""com.microsoft GroupNorm: group normalization of a 4-D X, NHWC (channels_last = 1) or NCHW: the channels split
into `groups` runs of C / groups, each run normalized over its channels and all positions, then the per-channel
gamma and beta, then SiLU (y * sigmoid(y)) when activation is 1. In float32, rounded once to X's type."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel

OP = "GroupNorm"


def group_normalize(op: str, s: np.ndarray, gamma: np.ndarray, beta: np.ndarray, *, activation: int,
                    channels_last: int, epsilon: float, groups: int) -> np.ndarray:
    """The float32 result for a float32 4-D `s` (see the module doc)."""
    if s.ndim != 4:
        raise ValueError(f"{op}: X must be 4-D, got {s.shape}")
    nchw = np.moveaxis(s, 3, 1) if channels_last else s
    n, c = nchw.shape[:2]
    if groups <= 0 or c % groups:
        raise ValueError(f"{op}: {c} channels do not split into {groups} groups")
    for name, param in (("gamma", gamma), ("beta", beta)):
        if param.shape != (c,):
            raise ValueError(f"{op}: {name} must have shape ({c},), got {param.shape}")
    grouped = nchw.reshape(n, groups, -1)
    mean = np.mean(grouped, axis=-1, keepdims=True, dtype=np.float32)
    deviation = grouped - mean
    variance = np.mean(deviation * deviation, axis=-1, keepdims=True, dtype=np.float32)
    normalized = (deviation / np.sqrt(variance + np.float32(epsilon))).reshape(nchw.shape)
    shape = (1, c, 1, 1)
    y = normalized * gamma.astype(np.float32).reshape(shape) + beta.astype(np.float32).reshape(shape)
    if activation == 1:
        y = y / (1 + np.exp(-y))
    elif activation != 0:
        raise ValueError(f"{op}: activation must be 0 (none) or 1 (SiLU), got {activation}")
    return np.moveaxis(y, 1, 3) if channels_last else y


@kernel("com.microsoft", "GroupNorm", since=1)
def group_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, *, activation: int, channels_last: int,
               epsilon: float, groups: int) -> tuple[np.ndarray, ...]:
    y = group_normalize(OP, x.astype(np.float32), gamma, beta, activation=activation, channels_last=channels_last,
                        epsilon=epsilon, groups=groups)
    return (np.ascontiguousarray(y).astype(x.dtype),)
