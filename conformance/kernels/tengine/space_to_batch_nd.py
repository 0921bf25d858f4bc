"""SpaceToBatchND (tengine, op id 52): TensorFlow's SpaceToBatchND over axes 1 and 2 of NHWC data."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "SpaceToBatchND", since=1)
def space_to_batch_nd(x: np.ndarray, *, dilation_x: int, dilation_y: int, pad_top: int, pad_bottom: int, pad_left: int,
                      pad_right: int) -> tuple[np.ndarray, ...]:
    if x.ndim != 4:
        raise ValueError(f"SpaceToBatchND: input must be NHWC (rank 4), got shape {x.shape}")
    by, bx = dilation_y, dilation_x
    padded = np.pad(x, ((0, 0), (pad_top, pad_bottom), (pad_left, pad_right), (0, 0)))
    n, h, w, c = padded.shape
    if by < 1 or bx < 1 or h % by or w % bx:
        raise ValueError(f"SpaceToBatchND: padded {h}x{w} does not divide into {by}x{bx} blocks")
    blocks = padded.reshape(n, h // by, by, w // bx, bx, c)  # n, oh, sy, ow, sx, c
    # output batch (sy * bx + sx) * n + b, as TensorFlow and Tengine's kernel number them
    y = blocks.transpose(2, 4, 0, 1, 3, 5).reshape(by * bx * n, h // by, w // bx, c)
    return (np.ascontiguousarray(y),)
