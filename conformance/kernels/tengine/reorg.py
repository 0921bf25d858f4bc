"""Reorg (tengine, op id 22): Darknet's reorg layer, [N, C, H, W] -> [N, C * s^2, H / s, W / s]."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "Reorg", since=1)
def reorg(x: np.ndarray, *, stride: int) -> tuple[np.ndarray, ...]:
    if x.ndim != 4:
        raise ValueError(f"Reorg: input must be NCHW (rank 4), got shape {x.shape}")
    n, c, h, w = x.shape
    s = stride
    if s < 1 or c % (s * s) or h % s or w % s:
        raise ValueError(f"Reorg: stride {s} must divide H and W and its square must divide C in {x.shape}")
    out_c = c // (s * s)
    # Darknet's reorg_cpu(forward=0): output element (b, k, j, i), counted in the input's shape, reads the input
    # as if it were [N, C / s^2, H * s, W * s] at (b, k % out_c, j * s + off // s, i * s + off % s), off = k // out_c.
    k = np.arange(c)[:, None, None]
    j = np.arange(h)[None, :, None]
    i = np.arange(w)[None, None, :]
    off = k // out_c
    source = ((k % out_c) * (h * s) + j * s + off // s) * (w * s) + i * s + off % s
    flat = x.reshape(n, -1)
    y = flat[:, source.reshape(-1)]
    return (y.reshape(n, c * s * s, h // s, w // s),)
