"""DepthToSpace (tengine, op id 80): moves channel blocks to space in CRD order (ONNX mode CRD)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "DepthToSpace", since=1)
def depth_to_space(x: np.ndarray, *, block_size: int) -> tuple[np.ndarray, ...]:
    if x.ndim != 4:
        raise ValueError(f"DepthToSpace: input must be NCHW (rank 4), got {x.shape}")
    n, c, h, w = x.shape
    b = block_size
    if b < 1 or c % (b * b):
        raise ValueError(f"DepthToSpace: {c} channels do not divide into {b} x {b} blocks")
    # Input channel s * b * b + dh * b + dw goes to output channel s at (h * b + dh, w * b + dw).
    y = x.reshape(n, c // (b * b), b, b, h, w).transpose(0, 1, 4, 2, 5, 3)
    return (np.ascontiguousarray(y.reshape(n, c // (b * b), h * b, w * b)),)
