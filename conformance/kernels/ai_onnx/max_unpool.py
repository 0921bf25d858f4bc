"""MaxUnpool (9, 11, 22): zeros, with each X value scattered to the flat output position its index names.

The output shape is output_shape when given, else [N, C] + (S - 1) * stride - pad_begin - pad_end + kernel per
spatial axis. Indices count positions of the whole output in row-major order (across batch and channel).
"""

from __future__ import annotations

import math

import numpy as np

from conformance.kernels.registry import kernel
from conformance.kernels.windows import checked_ints


@kernel("ai.onnx", "MaxUnpool", since=9)
def max_unpool(x: np.ndarray, i: np.ndarray, output_shape: np.ndarray | None, *, kernel_shape: list[int],
               pads: list[int], strides: list[int]) -> tuple[np.ndarray, ...]:
    if x.ndim < 3:
        raise ValueError(f"MaxUnpool: X must be N x C x spatial..., got shape {x.shape}")
    if i.shape != x.shape:
        raise ValueError(f"MaxUnpool: I has shape {i.shape}, X {x.shape}: they must agree")
    spatial = x.shape[2:]
    r = len(spatial)
    kernel = checked_ints("MaxUnpool", "kernel_shape", kernel_shape, r, 1)
    stride = checked_ints("MaxUnpool", "strides", strides, r, 1)
    pad = checked_ints("MaxUnpool", "pads", pads, 2 * r, 0)
    inferred = [(spatial[a] - 1) * stride[a] - pad[a] - pad[a + r] + kernel[a] for a in range(r)]
    if min(inferred) < 1:
        raise ValueError(f"MaxUnpool: kernel, strides and pads give the output spatial shape {inferred}")
    if output_shape is None:
        shape = (*x.shape[:2], *inferred)
    else:
        shape = tuple(int(d) for d in np.asarray(output_shape).reshape(-1))
        if len(shape) != x.ndim or shape[:2] != x.shape[:2] or min(shape) < 1:
            raise ValueError(f"MaxUnpool: output_shape {list(shape)} does not fit X of shape {x.shape}")
    size = math.prod(shape)
    flat = i.reshape(-1).astype(np.int64, copy=False)
    if flat.size and (flat.min() < 0 or flat.max() >= size):
        raise ValueError(f"MaxUnpool: indices must lie in [0, {size}), got [{flat.min()}, {flat.max()}]")
    y = np.zeros(size, dtype=x.dtype)
    y[flat] = x.reshape(-1)
    return (y.reshape(shape),)
