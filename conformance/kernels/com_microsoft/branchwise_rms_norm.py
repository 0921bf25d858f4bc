"""com.microsoft BranchwiseRMSNorm: RMS normalization of each branch (a run of H features) on its own:
y = x / sqrt(mean(x^2) + epsilon) (* scale). X is grouped (..., C, H), or flat (..., C * H) with num_branches = C;
scale is (C * H), (C, H) (one weight per branch and feature) or (H) (shared by the branches). In float32, rounded
once to X's type."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel

OP = "BranchwiseRMSNorm"


@kernel("com.microsoft", "BranchwiseRMSNorm", since=1)
def branchwise_rms_norm(x: np.ndarray, scale: np.ndarray | None, *, epsilon: float,
                        num_branches: int) -> tuple[np.ndarray, ...]:
    if num_branches > 0:
        if x.ndim < 1 or x.shape[-1] % num_branches:
            raise ValueError(f"{OP}: X's last dim must be a multiple of num_branches {num_branches}, got {x.shape}")
        branches = x.astype(np.float32).reshape(*x.shape[:-1], num_branches, x.shape[-1] // num_branches)
    elif x.ndim >= 2:
        branches = x.astype(np.float32)
    else:
        raise ValueError(f"{OP}: grouped X must have rank 2 or more, got {x.shape}")
    c, h = branches.shape[-2:]
    inv_rms = 1 / np.sqrt(np.mean(branches * branches, axis=-1, keepdims=True, dtype=np.float32) + np.float32(epsilon))
    y = branches * inv_rms
    if scale is not None:
        if scale.shape in ((c * h,), (c, h)):
            y = y * scale.astype(np.float32).reshape(c, h)
        elif scale.shape == (h,):
            y = y * scale.astype(np.float32)
        else:
            raise ValueError(f"{OP}: scale must be ({c * h},), ({c}, {h}) or ({h},), got {scale.shape}")
    return (y.reshape(x.shape).astype(x.dtype),)
