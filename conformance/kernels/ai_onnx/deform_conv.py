"""DeformConv (19, 22): convolution whose kernel taps are moved by learned offsets and scaled by a mask.

Tap t of output position o in offset group g samples X at o * strides - pads_begin + t * dilations +
offset[n, g, t, :, o] (one offset per spatial axis, outermost axis first), by multilinear interpolation with
zeros outside the image; the sample is multiplied by mask[n, g, t, o] (1 when mask is absent) and the columns
are convolved with W by group. Input channel c uses offset group c // (C / offset_group). Any number of spatial
axes; half precision computes in float32.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype
from conformance.kernels.registry import kernel
from conformance.kernels.windows import checked_ints


def _sample_columns(x: np.ndarray, offset: np.ndarray, mask: np.ndarray | None, kernel: tuple[int, ...],
                    strides: tuple[int, ...], dilations: tuple[int, ...], begin: tuple[int, ...],
                    offset_group: int, out: tuple[int, ...]) -> np.ndarray:
    """N x C x prod(kernel) x prod(out): the masked, interpolated sample of every tap at every output position."""
    n, c = x.shape[:2]
    spatial = x.shape[2:]
    r, k = len(spatial), math.prod(kernel)
    wt = x.dtype
    moves = offset.reshape(n, offset_group, k, r, *out).astype(wt, copy=False)
    taps = np.array(list(itertools.product(*(range(t) for t in kernel))), dtype=wt).reshape(k, r)
    # positions per axis d: (N, G, K, *out)
    pos = []
    for d in range(r):
        shape = [1] * len(out)
        shape[d] = out[d]
        start = (np.arange(out[d], dtype=wt) * strides[d] - begin[d]).reshape(shape)
        pos.append(start + (taps[:, d] * dilations[d]).reshape((k,) + (1,) * len(out)) + moves[:, :, :, d])
    base = [np.floor(p) for p in pos]
    frac = [p - b for p, b in zip(pos, base, strict=True)]
    grouped = x.reshape(n, offset_group, c // offset_group, *spatial)
    batch = np.arange(n).reshape((n,) + (1,) * (len(out) + 2))
    group = np.arange(offset_group).reshape((1, -1) + (1,) * (len(out) + 1))
    cols = np.zeros((n, offset_group, k, *out, c // offset_group), dtype=wt)
    for corner in itertools.product((0, 1), repeat=r):
        weight = np.ones_like(pos[0])
        index = []
        for d, bit in enumerate(corner):
            i = base[d].astype(np.int64) + bit
            inside = (i >= 0) & (i < spatial[d])
            weight = weight * np.where(inside, frac[d] if bit else 1 - frac[d], 0)
            index.append(np.clip(i, 0, spatial[d] - 1))
        if mask is not None:
            weight = weight * mask.reshape(n, offset_group, k, *out).astype(wt, copy=False)
        cols += weight[..., None] * grouped[(batch, group, slice(None), *index)]
    # (N, G, K, *out, C/G) -> (N, C, K, P)
    cols = np.moveaxis(cols, -1, 2)
    return cols.reshape(n, c, k, math.prod(out))


@kernel("ai.onnx", "DeformConv", since=19)
def deform_conv(x: np.ndarray, w: np.ndarray, offset: np.ndarray, b: np.ndarray | None, mask: np.ndarray | None,
                *, dilations: list[int], group: int, kernel_shape: list[int], offset_group: int, pads: list[int],
                strides: list[int]) -> tuple[np.ndarray, ...]:
    if x.ndim < 3 or w.ndim != x.ndim:
        raise ValueError(f"DeformConv: X {x.shape} and W {w.shape} must be N x C x spatial... and oC x C/group x k...")
    n, c = x.shape[:2]
    r = x.ndim - 2
    oc = w.shape[0]
    kernel = checked_ints("DeformConv", "kernel_shape", kernel_shape, r, 1)
    stride = checked_ints("DeformConv", "strides", strides, r, 1)
    dilation = checked_ints("DeformConv", "dilations", dilations, r, 1)
    pad = checked_ints("DeformConv", "pads", pads, 2 * r, 0)
    if tuple(w.shape[2:]) != kernel:
        raise ValueError(f"DeformConv: kernel_shape {list(kernel)} differs from W's {list(w.shape[2:])}")
    if group < 1 or c % group or oc % group or w.shape[1] * group != c:
        raise ValueError(f"DeformConv: group {group} does not divide C {c} and oC {oc} as W {w.shape} needs")
    if offset_group < 1 or c % offset_group:
        raise ValueError(f"DeformConv: offset_group {offset_group} must divide C {c}")
    out = tuple((x.shape[2 + d] + pad[d] + pad[d + r] - (kernel[d] - 1) * dilation[d] - 1) // stride[d] + 1
                for d in range(r))
    k = math.prod(kernel)
    if min(out) < 1 or offset.shape != (n, offset_group * k * r, *out):
        raise ValueError(f"DeformConv: offset must be {[n, offset_group * k * r, *out]}, got {list(offset.shape)}")
    if mask is not None and mask.shape != (n, offset_group * k, *out):
        raise ValueError(f"DeformConv: mask must be {[n, offset_group * k, *out]}, got {list(mask.shape)}")
    if b is not None and b.shape != (oc,):
        raise ValueError(f"DeformConv: B must hold {oc} values, got shape {b.shape}")
    wt = work_dtype(x)
    cols = _sample_columns(x.astype(wt, copy=False), offset, mask, kernel, stride, dilation, pad[:r],
                           offset_group, out)
    per = c // group
    cols = cols.reshape(n, group, per * k, -1)
    weights = w.astype(wt, copy=False).reshape(group, oc // group, per * k)
    y = np.einsum("gok,ngkp->ngop", weights, cols).reshape(n, oc, *out)
    if b is not None:
        y += b.astype(wt, copy=False).reshape((1, oc) + (1,) * r)
    return (y.astype(x.dtype, copy=False),)
