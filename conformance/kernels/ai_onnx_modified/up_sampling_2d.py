"""UpSampling2D (ai.onnx.modified): nearest-neighbour repeat of H and W of an NHWC tensor by size=[fh, fw]."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx.modified", "UpSampling2D", since=1)
def up_sampling_2d(x: np.ndarray, *, size: Sequence[int]) -> tuple[np.ndarray, ...]:
    if x.ndim != 4:
        raise ValueError(f"UpSampling2D: X must be NHWC (rank 4), got shape {x.shape}")
    fh, fw = (int(s) for s in size)
    if fh < 1 or fw < 1:
        raise ValueError(f"UpSampling2D: size must be positive, got {list(size)}")
    # Broadcast each pixel to an fh x fw block, then merge the block axes into H and W.
    n, h, w, c = x.shape
    blocks = np.broadcast_to(x[:, :, None, :, None, :], (n, h, fh, w, fw, c))
    return (blocks.reshape(n, h * fh, w * fw, c).copy(),)
