"""Crop (tengine, op id 56): a window of an NCHW tensor, Caffe style (flag 0) or MXNet style (flag 1).

Output size: MXNet with one argument takes `crop_h` x `crop_w` centred in the input; otherwise the
size of the optional reference input (Caffe's and MXNet's second bottom) from the crop axis on, or
the input's own when there is none. Caffe (flag 0) starts at offset_c (axis 1 only), offset_h and
offset_w; MXNet with two arguments at offset_h and offset_w.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "Crop", since=1)
def crop(x: np.ndarray, reference: np.ndarray | None, *, num_args: int, offset_c: int, offset_h: int, offset_w: int,
         crop_h: int, crop_w: int, center_crop: int, axis: int, flag: int) -> tuple[np.ndarray, ...]:
    # center_crop is stored but Tengine's kernel never reads it: MXNet's one-argument crop always centres.
    if x.ndim != 4:
        raise ValueError(f"Crop: input must be NCHW (rank 4), got {x.shape}")
    _, c, h, w = x.shape
    ref = reference.shape if reference is not None else x.shape
    if flag == 1 and num_args == 1:
        oc, oh, ow, c0, h0, w0 = c, crop_h, crop_w, 0, (h - crop_h) // 2, (w - crop_w) // 2
    elif flag == 1:
        oc, oh, ow, c0, h0, w0 = c, ref[2], ref[3], 0, offset_h, offset_w
    elif flag == 0:
        channels = axis == 1
        oc, oh, ow = (ref[1] if channels else c), ref[2], ref[3]
        c0, h0, w0 = (offset_c if channels else 0), offset_h, offset_w
    else:
        raise ValueError(f"Crop: flag must be 0 (Caffe) or 1 (MXNet), got {flag}")
    if min(c0, h0, w0) < 0 or min(oc, oh, ow) < 1 or c0 + oc > c or h0 + oh > h or w0 + ow > w:
        raise ValueError(f"Crop: window {oc}x{oh}x{ow} at ({c0}, {h0}, {w0}) does not fit in {x.shape}")
    return (np.ascontiguousarray(x[:, c0:c0 + oc, h0:h0 + oh, w0:w0 + ow]),)
