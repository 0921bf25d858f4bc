"""CenterCropPad: each listed axis cut to a centred window (start rounded down) or zero-padded on both
sides (an odd extra element on the right) to the requested size; a string tensor pads with empty strings."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import normalize_axes, zeros_of
from conformance.kernels.registry import kernel

OP = "CenterCropPad"


@kernel("ai.onnx", "CenterCropPad", since=18)
def center_crop_pad(input_data: np.ndarray, shape: np.ndarray, *, axes: list[int] | None) -> tuple[np.ndarray, ...]:
    rank = input_data.ndim
    ax = tuple(range(rank)) if axes is None else normalize_axes(OP, axes, rank)
    sizes = [int(s) for s in np.asarray(shape).reshape(-1)]
    if len(sizes) != len(ax):
        raise ValueError(f"{OP}: shape has {len(sizes)} values for {len(ax)} axes")
    if any(s < 0 for s in sizes):
        raise ValueError(f"{OP}: shape {sizes} has a negative size")
    out_shape = list(input_data.shape)
    source = [slice(None)] * rank
    target = [slice(None)] * rank
    for a, size in zip(ax, sizes, strict=True):
        have = input_data.shape[a]
        out_shape[a] = size
        if size < have:  # crop: the window starts floor((have - size) / 2) in
            start = (have - size) // 2
            source[a] = slice(start, start + size)
        elif size > have:  # pad: floor((size - have) / 2) zeros before, the rest after
            start = (size - have) // 2
            target[a] = slice(start, start + have)
    out = zeros_of(out_shape, input_data.dtype)  # a string tensor pads with empty strings
    out[tuple(target)] = input_data[tuple(source)]
    return (out,)
