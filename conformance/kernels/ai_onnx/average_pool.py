"""AveragePool (1, 7, 10, 11, 19, 22): box sums by separable strided adds, divided by a window count.

The count comes from pooling a ones-mask: with count_include_pad=0 it covers the input only, with 1 it also
covers the explicit (or automatic) padding, never the ceil-mode overhang. The mask is a box, so its pooled
counts are the outer product of one pooled 1-D mask per axis.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype
from conformance.kernels.registry import kernel
from conformance.kernels.windows import Window, dense_dilations, make_window, pad_spatial, separable_reduce


@kernel("ai.onnx", "AveragePool", since=1, until=6)
def average_pool_v1(x: np.ndarray, *, kernel_shape: list[int], auto_pad: str, pads: list[int],
                    strides: list[int]) -> tuple[np.ndarray, ...]:
    # before opset 7 the padding never counts; ceil mode comes at 10, dilations at 19
    return _average_pool(x, kernel_shape, auto_pad, pads, strides, dense_dilations(x), 0, 0)


@kernel("ai.onnx", "AveragePool", since=7, until=9)
def average_pool_v7(x: np.ndarray, *, kernel_shape: list[int], auto_pad: str, pads: list[int], strides: list[int],
                    count_include_pad: int) -> tuple[np.ndarray, ...]:
    return _average_pool(x, kernel_shape, auto_pad, pads, strides, dense_dilations(x), 0, count_include_pad)


@kernel("ai.onnx", "AveragePool", since=10, until=18)
def average_pool_v10(x: np.ndarray, *, kernel_shape: list[int], auto_pad: str, pads: list[int], strides: list[int],
                     count_include_pad: int, ceil_mode: int) -> tuple[np.ndarray, ...]:
    # the seed's VALID size ceil((S - k + 1) / s) is floor mode's: ceil_mode does not apply to VALID here
    # (onnx's shape inference and onnxruntime apply it: reading averagepool_r1)
    ceil_mode = 0 if auto_pad == "VALID" else ceil_mode
    return _average_pool(x, kernel_shape, auto_pad, pads, strides, dense_dilations(x), ceil_mode, count_include_pad)


@kernel("ai.onnx", "AveragePool", since=19)
def average_pool(x: np.ndarray, *, kernel_shape: list[int], auto_pad: str, pads: list[int], strides: list[int],
                 count_include_pad: int, ceil_mode: int, dilations: list[int]) -> tuple[np.ndarray, ...]:
    return _average_pool(x, kernel_shape, auto_pad, pads, strides, dilations, ceil_mode, count_include_pad)


def _average_pool(x: np.ndarray, kernel_shape: list[int], auto_pad: str, pads: list[int], strides: list[int],
                  dilations: list[int], ceil_mode: int, count_include_pad: int) -> tuple[np.ndarray, ...]:
    if x.ndim < 3:
        raise ValueError(f"AveragePool: input must be N x C x spatial..., got shape {x.shape}")
    spatial = x.shape[2:]
    w = make_window("AveragePool", spatial, kernel_shape, strides=strides, dilations=dilations, pads=pads,
                    auto_pad=auto_pad, ceil_mode=ceil_mode)
    end = w.padded_end(spatial)
    wt = work_dtype(x)
    total = separable_reduce(pad_spatial(x.astype(wt, copy=False), w.begin, end, 0), w, np.add)

    count = _window_counts(spatial, w, end, count_include_pad, wt)
    if count.size and np.all(count == count.flat[0]):
        np.divide(total, count.flat[0], out=total)
    else:
        np.divide(total, count, out=total)
    return (total.astype(x.dtype, copy=False),)


def _window_counts(spatial: tuple[int, ...], w: Window, end: tuple[int, ...], count_include_pad: int,
                   dtype: np.dtype) -> np.ndarray:
    """How many counted positions each window covers, as an array of the output's spatial shape.

    The counted region is a box (the input, or the input with its padding), so its window sums are the outer
    product of one count per axis: each axis is pooled on its own ones-mask, a vector, not the whole grid.
    """
    counts = np.ones((), dtype=dtype)
    for i, (s, b, e) in enumerate(zip(spatial, w.begin, end, strict=True)):
        mask = np.zeros(s + b + e, dtype=dtype)
        if count_include_pad:
            mask[:s + b + w.end[i]] = 1
        else:
            mask[b:b + s] = 1
        axis = Window(w.kernel[i:i + 1], w.strides[i:i + 1], w.dilations[i:i + 1], w.begin[i:i + 1],
                      w.end[i:i + 1], w.out[i:i + 1])
        counts = np.multiply.outer(counts, separable_reduce(mask, axis, np.add))
    return counts
