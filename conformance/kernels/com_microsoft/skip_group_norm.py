"""com.microsoft SkipGroupNorm: s = X + skip (+ bias), then GroupNorm of s (groups, gamma, beta, optional SiLU);
also gives s. skip is X's shape, X's with the positions of size 1 ((N, 1, 1, C) in NHWC), or (N, C)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft.group_norm import group_normalize
from conformance.kernels.registry import kernel

OP = "SkipGroupNorm"


@kernel("com.microsoft", "SkipGroupNorm", since=1)
def skip_group_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, skip: np.ndarray, bias: np.ndarray | None,
                    *, activation: int, channels_last: int, epsilon: float, groups: int) -> tuple[np.ndarray, ...]:
    if x.ndim != 4:
        raise ValueError(f"{OP}: X must be 4-D, got {x.shape}")
    c_axis = 3 if channels_last else 1
    n, c = x.shape[0], x.shape[c_axis]
    per_channel = tuple(d if i in (0, c_axis) else 1 for i, d in enumerate(x.shape))
    if skip.shape == (n, c):
        skip = skip.reshape(per_channel)
    elif skip.shape not in (x.shape, per_channel):
        raise ValueError(f"{OP}: skip {skip.shape} must be {x.shape}, {per_channel} or {(n, c)}")
    s = x.astype(np.float32) + skip.astype(np.float32)
    if bias is not None:
        if bias.shape != (c,):
            raise ValueError(f"{OP}: bias must have shape ({c},), got {bias.shape}")
        s = s + bias.astype(np.float32).reshape(tuple(c if i == c_axis else 1 for i in range(4)))
    y = group_normalize(OP, s, gamma, beta, activation=activation, channels_last=channels_last, epsilon=epsilon,
                        groups=groups)
    return (np.ascontiguousarray(y).astype(x.dtype), s.astype(x.dtype))
