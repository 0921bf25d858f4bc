"""AffineGrid (20): theta (N x r x (r + 1)) applied to a grid of normalised positions in [-1, 1].

size is [N, C, H, W] (r = 2) or [N, C, D, H, W] (r = 3). Along an axis of length L the positions are
(2 i + 1) / L - 1 (align_corners = 0) or -1 + 2 i / (L - 1) (align_corners = 1), and 0 when L = 1 (PyTorch's
affine_grid, which the op follows). A grid point is the column [x, y, (z,) 1] with x along the innermost axis;
the output holds theta @ that column, so its last axis lists x', y' (, z').
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype
from conformance.kernels.registry import kernel


def normalised_positions(length: int, align_corners: int, dtype: np.dtype) -> np.ndarray:
    """The positions of `length` pixel centres on [-1, 1]."""
    if length == 1:
        return np.zeros(1, dtype=dtype)
    i = np.arange(length, dtype=dtype)
    if align_corners:
        return np.asarray(i * dtype.type(2) / dtype.type(length - 1) - dtype.type(1))
    return np.asarray((i * dtype.type(2) + dtype.type(1)) / dtype.type(length) - dtype.type(1))


@kernel("ai.onnx", "AffineGrid", since=20)
def affine_grid(theta: np.ndarray, size: np.ndarray, *, align_corners: int) -> tuple[np.ndarray, ...]:
    dims = [int(d) for d in np.asarray(size).reshape(-1)]
    if len(dims) not in (4, 5):
        raise ValueError(f"AffineGrid: size must be [N, C, H, W] or [N, C, D, H, W], got {dims}")
    r = len(dims) - 2
    if theta.shape != (dims[0], r, r + 1):
        raise ValueError(f"AffineGrid: theta must be {dims[0]} x {r} x {r + 1} for size {dims}, got {theta.shape}")
    if min(dims) < 1:
        raise ValueError(f"AffineGrid: size values must be >= 1, got {dims}")
    wt = work_dtype(theta)
    axes = [normalised_positions(length, align_corners, wt) for length in dims[2:]]
    mesh = np.meshgrid(*axes, indexing="ij")  # D, H, W order
    points = np.stack([*reversed(mesh), np.ones(dims[2:], dtype=wt)], axis=-1)  # x, y, (z,) 1
    grid = np.einsum("...k,nrk->n...r", points, theta.astype(wt, copy=False))
    return (grid.astype(theta.dtype, copy=False),)
