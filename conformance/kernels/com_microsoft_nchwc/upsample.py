"""com.microsoft.nchwc Upsample: integer-factor nearest or bilinear upsampling of a blocked tensor."""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft_nchwc._nchwc import blocks_of, to_blocks, unblock
from conformance.kernels.registry import kernel


def _source(n: int, o: int, s: int, mode: str) -> np.ndarray:
    """Each output index's input coordinate along one axis, in float32 as onnxruntime computes it."""
    x = np.arange(o, dtype=np.float32)
    if s == 1:
        return x
    if mode == "align_corners":
        return np.asarray(x * np.float32(n - 1) / np.float32(o - 1))
    if mode == "half_pixel":
        return np.asarray(np.maximum(np.float32(0), (x + np.float32(0.5)) / np.float32(s) - np.float32(0.5)))
    return x / np.float32(s)


def _taps(n: int, o: int, s: int, mode: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The two input indices each output index interpolates between, and the weight of the second."""
    v = _source(n, o, s, mode)
    lo = v.astype(np.int64)
    return lo, np.minimum(lo + 1, n - 1), v - lo.astype(np.float32)


@kernel("com.microsoft.nchwc", "Upsample", since=1)
def upsample(x: np.ndarray, *, coordinate_transformation_mode: str, mode: str,
             scales: list[int] | None) -> tuple[np.ndarray, ...]:
    blocks_of("Upsample", x)
    if scales is None or len(scales) != 4 or scales[0] != 1 or scales[1] != 1 or min(scales) < 1:
        raise ValueError(f"Upsample: scales must be [1, 1, sh, sw] with sh, sw >= 1, got {scales}")
    if mode not in ("nearest", "linear"):
        raise ValueError(f"Upsample: unsupported mode {mode!r}")
    if coordinate_transformation_mode not in ("asymmetric", "align_corners", "half_pixel"):
        raise ValueError(f"Upsample: unsupported coordinate_transformation_mode {coordinate_transformation_mode!r}")
    if mode == "nearest" and coordinate_transformation_mode != "asymmetric":
        raise ValueError("Upsample: nearest mode takes only the asymmetric coordinate transformation")
    t = unblock(x)
    _, _, h, w = t.shape
    sh, sw = scales[2], scales[3]
    if mode == "nearest":
        y = np.repeat(np.repeat(t, sh, axis=2), sw, axis=3)
        return (to_blocks(y),)
    y0, y1, fy = _taps(h, h * sh, sh, coordinate_transformation_mode)
    x0, x1, fx = _taps(w, w * sw, sw, coordinate_transformation_mode)
    gy, gx = fy[:, None], fx[None, :]
    one = np.float32(1)
    rows0, rows1 = t[:, :, y0, :], t[:, :, y1, :]
    top = rows0[..., x0] * ((one - gy) * (one - gx)) + rows0[..., x1] * ((one - gy) * gx)
    bottom = rows1[..., x0] * (gy * (one - gx)) + rows1[..., x1] * (gy * gx)
    return (to_blocks((top + bottom).astype(x.dtype)),)
