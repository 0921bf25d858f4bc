"""LRN (tengine, op id 13): local response normalisation across channels, x / (k + alpha / n * sum x^2) ** beta."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "LRN", since=1)
def lrn(x: np.ndarray, *, local_size: int, alpha: float, beta: float, norm_region: int, k: float, bias: float,
        is_onnx: int) -> tuple[np.ndarray, ...]:
    # bias and is_onnx are stored in the file but Tengine never reads them.
    if x.ndim != 4:
        raise ValueError(f"LRN: input must be NCHW (rank 4), got shape {x.shape}")
    if norm_region != 0:
        raise ValueError(f"LRN: only norm_region 0 (across channels) is defined, got {norm_region}")
    if local_size < 1:
        raise ValueError(f"LRN: local_size must be at least 1, got {local_size}")
    work = np.promote_types(x.dtype, np.float32)
    wx = x.astype(work, copy=False)
    c = x.shape[1]
    half = local_size // 2
    # Channels [j - half, j + half] that exist: a window of 2 * (local_size // 2) + 1 channels.
    padded = np.pad(np.square(wx), ((0, 0), (half, half), (0, 0), (0, 0)))
    csum = np.concatenate([np.zeros_like(padded[:, :1]), np.cumsum(padded, axis=1)], axis=1)
    window = csum[:, 2 * half + 1:2 * half + 1 + c] - csum[:, :c]
    y = wx * np.power(np.asarray(k, work) + np.asarray(alpha / local_size, work) * window, np.asarray(-beta, work))
    return (y.astype(x.dtype, copy=False),)
