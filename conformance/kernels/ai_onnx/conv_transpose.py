"""ConvTranspose (1, 11, 22): one batched matmul W^T @ X, then col2im by strided adds, one per kernel tap.

Output size: stride * (in - 1) + output_padding + (kernel - 1) * dilation + 1 - pads; with output_shape (or
SAME_*) the total padding is derived and split: SAME_UPPER puts the smaller half first, otherwise the larger.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype
from conformance.kernels.ai_onnx.conv import check_kernel_shape
from conformance.kernels.registry import kernel
from conformance.kernels.windows import AUTO_PADS, checked_ints


def _placement(spatial: tuple[int, ...], ks: list[int], strides: tuple[int, ...], dil: tuple[int, ...],
               out_pad: tuple[int, ...], pads: list[int], auto_pad: str,
               output_shape: list[int] | None) -> tuple[list[int], list[int], list[int]]:
    """Full (uncropped) size, crop start and output size of each spatial axis."""
    r = len(spatial)
    full = [strides[i] * (spatial[i] - 1) + out_pad[i] + (ks[i] - 1) * dil[i] + 1 for i in range(r)]
    if auto_pad not in AUTO_PADS:
        raise ValueError(f"ConvTranspose: auto_pad must be one of {AUTO_PADS}, got {auto_pad!r}")
    if output_shape is not None or auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        if output_shape is not None:
            out = [int(v) for v in output_shape][-r:]
            if len(out) != r:
                raise ValueError(f"ConvTranspose: output_shape {list(output_shape)} has fewer than {r} dims")
        else:
            out = [spatial[i] * strides[i] for i in range(r)]
        total = [full[i] - out[i] for i in range(r)]
        begin = [t // 2 if auto_pad == "SAME_UPPER" else t - t // 2 for t in total]
        return full, begin, out
    p = (0,) * (2 * r) if auto_pad == "VALID" else checked_ints("ConvTranspose", "pads", pads, 2 * r, 0)
    out = [full[i] - p[i] - p[i + r] for i in range(r)]
    if any(o <= 0 for o in out):
        raise ValueError(f"ConvTranspose: pads {list(p)} leave an empty output {out}")
    return full, list(p[:r]), out


@kernel("ai.onnx", "ConvTranspose", since=1)
def conv_transpose(x: np.ndarray, weight: np.ndarray, bias: np.ndarray | None, *, auto_pad: str, dilations: list[int],
                   group: int, kernel_shape: list[int], output_padding: list[int], output_shape: list[int] | None,
                   pads: list[int], strides: list[int]) -> tuple[np.ndarray, ...]:
    if x.ndim < 3 or weight.ndim != x.ndim:
        raise ValueError(f"ConvTranspose: X {x.shape} and W {weight.shape} must both be N x C x spatial...")
    n, c = x.shape[:2]
    if group < 1 or c % group or weight.shape[0] != c:
        raise ValueError(f"ConvTranspose: group={group} does not fit X channels {c} and W {weight.shape}")
    mg = weight.shape[1]
    m = mg * group
    if bias is not None and bias.shape != (m,):
        raise ValueError(f"ConvTranspose: B must have shape ({m},), got {bias.shape}")
    ks = check_kernel_shape("ConvTranspose", kernel_shape, weight)
    spatial = x.shape[2:]
    r = len(spatial)
    st = checked_ints("ConvTranspose", "strides", strides, r, 1)
    dil = checked_ints("ConvTranspose", "dilations", dilations, r, 1)
    op = checked_ints("ConvTranspose", "output_padding", output_padding, r, 0)
    full, begin, out = _placement(spatial, ks, st, dil, op, pads, auto_pad, output_shape)

    wt = work_dtype(x)
    k = math.prod(ks)
    wg = weight.astype(wt, copy=False).reshape(group, c // group, mg * k).transpose(0, 2, 1)
    cols = np.matmul(wg, x.astype(wt, copy=False).reshape(n, group, c // group, -1))
    cols = cols.reshape((n, m, k, *spatial))

    # canvas covering both the full result and the requested output window
    lo = [min(0, b) for b in begin]
    canvas = np.zeros((n, m, *tuple(max(f, b + o) - low for f, b, o, low in zip(full, begin, out, lo, strict=True))),
                      dtype=wt)
    for j, tap in enumerate(np.ndindex(*ks)):
        index: tuple[Any, ...] = (Ellipsis, *(slice(t * d - low, t * d - low + (s_ - 1) * s + 1, s)
                                              for t, d, low, s_, s in zip(tap, dil, lo, spatial, st, strict=True)))
        canvas[index] += cols[:, :, j]
    crop: tuple[Any, ...] = (Ellipsis, *(slice(b - low, b - low + o) for b, low, o in zip(begin, lo, out, strict=True)))
    y = canvas[crop]
    if bias is not None:
        y = y + bias.astype(wt, copy=False).reshape((1, m) + (1,) * r)
    return (np.ascontiguousarray(y).astype(x.dtype, copy=False),)
