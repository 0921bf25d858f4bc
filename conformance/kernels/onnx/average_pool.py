"""AveragePool (1, 7, 10, 11, 19, 22): box sums by separable strided adds, divided by a window count.

The count comes from pooling a ones-mask: with count_include_pad=0 it covers the input only, with 1 it also
covers the explicit (or automatic) padding, never the ceil-mode overhang.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.onnx._common import work_dtype
from conformance.kernels.registry import kernel
from conformance.kernels.windows import make_window, pad_spatial, separable_reduce


@kernel("ai.onnx", "AveragePool", since=1)
def average_pool(x: np.ndarray, *, kernel_shape: list[int] | None = None, auto_pad: str = "NOTSET",
                 pads: list[int] | None = None, strides: list[int] | None = None,
                 dilations: list[int] | None = None, ceil_mode: int = 0,
                 count_include_pad: int = 0) -> tuple[np.ndarray, ...]:
    if x.ndim < 3:
        raise ValueError(f"AveragePool: input must be N x C x spatial..., got shape {x.shape}")
    spatial = x.shape[2:]
    w = make_window("AveragePool", spatial, kernel_shape, strides=strides, dilations=dilations, pads=pads,
                    auto_pad=auto_pad, ceil_mode=ceil_mode)
    end = w.padded_end(spatial)
    wt = work_dtype(x)
    total = separable_reduce(pad_spatial(x.astype(wt, copy=False), w.begin, end, 0), w, np.add)

    grid = tuple(s + b + e for s, b, e in zip(spatial, w.begin, end, strict=True))
    mask = np.zeros(grid, dtype=wt)
    if count_include_pad:
        mask[tuple(slice(0, s + b + e) for s, b, e in zip(spatial, w.begin, w.end, strict=True))] = 1
    else:
        mask[tuple(slice(b, b + s) for s, b in zip(spatial, w.begin, strict=True))] = 1
    count = separable_reduce(mask, w, np.add)
    if count.size and np.all(count == count.flat[0]):
        np.divide(total, count.flat[0], out=total)
    else:
        np.divide(total, count, out=total)
    return (total.astype(x.dtype, copy=False),)
