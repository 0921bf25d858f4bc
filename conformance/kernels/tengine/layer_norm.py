"""LayerNorm (tengine, op id 107): normalise each last-axis row, then gamma * . + beta elementwise."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "LayerNorm", since=1)
def layer_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, *, eps: float) -> tuple[np.ndarray, ...]:
    length = x.shape[-1]
    if gamma.size != length or beta.size != length:
        raise ValueError(f"LayerNorm: gamma and beta need {length} values each")
    work = np.promote_types(x.dtype, np.float32)
    wx = x.astype(work, copy=False)
    mean = wx.mean(axis=-1, keepdims=True)
    # Tengine's variance: mean of squares minus squared mean
    var = (wx * wx).mean(axis=-1, keepdims=True) - mean * mean
    with np.errstate(divide="ignore", invalid="ignore"):
        normed = (wx - mean) / np.sqrt(var + np.asarray(eps, work))
    y = normed * gamma.reshape(length).astype(work, copy=False) + beta.reshape(length).astype(work, copy=False)
    return (y.astype(x.dtype, copy=False),)
