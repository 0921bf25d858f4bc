"""BatchToSpaceND (tengine, op id 53): TensorFlow's batch_to_space_nd on NHWC data with 2-D blocks and crops.

Batch b = (oy * dilation_x + ox) * N' + n is moved to the spatial offset (oy, ox) of batch n, then
the crops are cut off: as Tengine's reference kernel (its spatial_offset / dilation_x and % dilation_x).
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "BatchToSpaceND", since=1)
def batch_to_space_nd(x: np.ndarray, *, dilation_x: int, dilation_y: int, crop_top: int, crop_bottom: int,
                      crop_left: int, crop_right: int) -> tuple[np.ndarray, ...]:
    if x.ndim != 4:
        raise ValueError(f"BatchToSpaceND: input must be NHWC (rank 4), got {x.shape}")
    if dilation_x < 1 or dilation_y < 1:
        raise ValueError(f"BatchToSpaceND: dilations must be >= 1, got {dilation_x}, {dilation_y}")
    n, h, w, c = x.shape
    if n % (dilation_x * dilation_y):
        raise ValueError(f"BatchToSpaceND: batch {n} does not divide into {dilation_y} x {dilation_x} blocks")
    out_n = n // (dilation_x * dilation_y)
    blocks = x.reshape(dilation_y, dilation_x, out_n, h, w, c).transpose(2, 3, 0, 4, 1, 5)
    full = blocks.reshape(out_n, h * dilation_y, w * dilation_x, c)
    out_h = h * dilation_y - crop_top - crop_bottom
    out_w = w * dilation_x - crop_left - crop_right
    if out_h < 1 or out_w < 1 or min(crop_top, crop_bottom, crop_left, crop_right) < 0:
        raise ValueError(f"BatchToSpaceND: crops leave an empty or negative output ({out_h} x {out_w})")
    return (np.ascontiguousarray(full[:, crop_top:crop_top + out_h, crop_left:crop_left + out_w]),)
