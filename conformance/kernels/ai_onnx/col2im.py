"""Col2Im: the columns of `input` ([N, C * prod(block_shape), L], one column per sliding block in
row-major block order) summed back into an image of image_shape, as the inverse of an im2col with
`dilations`, `pads` and `strides`; overlapping elements add up. In a string tensor adding is concatenation (as
the Scatter ops' `add` reads for strings in onnx.reference and onnxruntime), in block order, and an element no
block covers is the empty string."""

from __future__ import annotations

import itertools

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype, zeros_of
from conformance.kernels.registry import kernel

OP = "Col2Im"


def _vector(name: str, values: np.ndarray) -> list[int]:
    if np.ndim(values) != 1:
        raise ValueError(f"{OP}: {name} must be 1-D, got shape {np.shape(values)}")
    return [int(v) for v in np.asarray(values)]


@kernel("ai.onnx", "Col2Im", since=18)
def col2im(x: np.ndarray, image_shape: np.ndarray, block_shape: np.ndarray, *, dilations: list[int],
           pads: list[int], strides: list[int]) -> tuple[np.ndarray, ...]:
    image, block = _vector("image_shape", image_shape), _vector("block_shape", block_shape)
    n = len(image)
    if len(block) != n or len(dilations) != n or len(strides) != n or len(pads) != 2 * n:
        raise ValueError(f"{OP}: image_shape {image}, block_shape {block}, dilations {dilations}, strides "
                         f"{strides} need one length n and pads 2 * n ({pads})")
    if x.ndim != 3:
        raise ValueError(f"{OP}: input must be [N, C * prod(block_shape), L], got shape {x.shape}")
    if min(block, default=1) < 1 or min(dilations, default=1) < 1 or min(strides, default=1) < 1 or \
            min(pads, default=0) < 0:
        raise ValueError(f"{OP}: block_shape, dilations and strides must be >= 1 and pads >= 0")
    batch, channels_blocks, count = x.shape
    per_block = int(np.prod(block, dtype=np.int64))
    if channels_blocks % per_block:
        raise ValueError(f"{OP}: input dim 1 ({channels_blocks}) is not a multiple of prod(block_shape) {per_block}")
    channels = channels_blocks // per_block
    padded = [image[i] + pads[i] + pads[i + n] for i in range(n)]
    blocks = [(padded[i] - dilations[i] * (block[i] - 1) - 1) // strides[i] + 1 for i in range(n)]
    if min(blocks, default=1) < 1 or int(np.prod(blocks, dtype=np.int64)) != count:
        raise ValueError(f"{OP}: input dim 2 ({count}) must be the number of sliding blocks {blocks}")
    acc = work_dtype(x)
    columns = x.reshape(batch, channels, *block, *blocks).astype(acc, copy=False)
    out = zeros_of((batch, channels, *padded), acc)
    offsets = list(itertools.product(*(range(b) for b in block)))
    if x.dtype.kind == "O":
        # an element's contributions come in descending offset order exactly when they come in ascending block
        # order (block = (position - offset * dilation) / stride per axis): concatenation in block order
        offsets.reverse()
    for offset in offsets:  # one pass per position inside the block
        window = tuple(slice(offset[i] * dilations[i], offset[i] * dilations[i] + strides[i] * (blocks[i] - 1) + 1,
                             strides[i]) for i in range(n))
        at: tuple[slice | int, ...] = (slice(None), slice(None), *offset)
        out[(slice(None), slice(None), *window)] += columns[at]
    crop = tuple(slice(pads[i], pads[i] + image[i]) for i in range(n))
    return (np.ascontiguousarray(out[(slice(None), slice(None), *crop)]).astype(x.dtype, copy=False),)
