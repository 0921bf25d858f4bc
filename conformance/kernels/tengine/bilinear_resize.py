"""BilinearResize (tengine, op id 2): nearest (type 0) or bilinear (type 1) resize of NCHW data by scale factors.

The output is `int(H * scale_y)` x `int(W * scale_x)`. Nearest takes source row `min(int(i / scale_y), H - 1)`;
bilinear maps output row i to `(i + 0.5) / scale_y - 0.5` (half-pixel), clamped to [0, H - 1].
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


def _nearest(size: int, out: int, scale: float) -> np.ndarray:
    return np.minimum((np.arange(out) / scale).astype(np.int64), size - 1)


def _linear(size: int, out: int, scale: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(low index, high index, weight of high) per output position."""
    src = np.clip((np.arange(out) + 0.5) / scale - 0.5, 0, size - 1)
    low = np.floor(src).astype(np.int64)
    high = np.minimum(low + 1, size - 1)
    return low, high, src - low


@kernel("tengine", "BilinearResize", since=1)
def bilinear_resize(x: np.ndarray, *, scale_x: float, scale_y: float, type: int) -> tuple[np.ndarray, ...]:
    if x.ndim != 4:
        raise ValueError(f"BilinearResize: input must be NCHW (rank 4), got {x.shape}")
    h, w = x.shape[2:]
    oh, ow = int(h * scale_y), int(w * scale_x)
    if oh < 1 or ow < 1:
        raise ValueError(f"BilinearResize: scales {scale_y}, {scale_x} give an empty output from {h} x {w}")
    if type == 0:
        return (np.ascontiguousarray(x[:, :, _nearest(h, oh, scale_y)][:, :, :, _nearest(w, ow, scale_x)]),)
    if type != 1:
        raise ValueError(f"BilinearResize: type must be 0 (nearest) or 1 (bilinear), got {type}")
    work = x.astype(np.promote_types(x.dtype, np.float32), copy=False)
    y0, y1, fy = _linear(h, oh, scale_y)
    x0, x1, fx = _linear(w, ow, scale_x)
    fy, fx = fy[:, None].astype(work.dtype), fx[None, :].astype(work.dtype)
    top = work[:, :, y0][:, :, :, x0] * (1 - fx) + work[:, :, y0][:, :, :, x1] * fx
    bottom = work[:, :, y1][:, :, :, x0] * (1 - fx) + work[:, :, y1][:, :, :, x1] * fx
    return ((top * (1 - fy) + bottom * fy).astype(x.dtype, copy=False),)
