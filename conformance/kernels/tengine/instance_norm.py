"""InstanceNorm (tengine, op id 66): per (sample, channel) normalisation of an NCHW tensor with gamma and beta."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "InstanceNorm", since=1)
def instance_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, *, eps: float) -> tuple[np.ndarray, ...]:
    if x.ndim < 3:
        raise ValueError(f"InstanceNorm: input must be [N, C, H, ...], got shape {x.shape}")
    c = x.shape[1]
    if gamma.size != c or beta.size != c:
        raise ValueError(f"InstanceNorm: gamma {gamma.shape} and beta {beta.shape} need {c} values each")
    work = np.promote_types(x.dtype, np.float32)
    wx = x.astype(work, copy=False)
    axes = tuple(range(2, x.ndim))
    mean = wx.mean(axis=axes, keepdims=True)
    # Tengine divides the centred sum of squares by H * W (the biased variance).
    var = np.square(wx - mean).mean(axis=axes, keepdims=True)
    shape = (1, c) + (1,) * (x.ndim - 2)
    scale = gamma.reshape(shape).astype(work) / np.sqrt(var + np.asarray(eps, work))
    y = (wx - mean) * scale + beta.reshape(shape).astype(work)
    return (y.astype(x.dtype, copy=False),)
