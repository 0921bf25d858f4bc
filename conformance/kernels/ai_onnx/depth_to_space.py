"""DepthToSpace: channel blocks of blocksize x blocksize moved into space, the inverse of SpaceToDepth;
DCR (depth-column-row, the only order before opset 11) or CRD (column-row-depth) from opset 11."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel

OP = "DepthToSpace"


@kernel("ai.onnx", "DepthToSpace", since=1, until=10)
def depth_to_space_v1(x: np.ndarray, *, blocksize: int) -> tuple[np.ndarray, ...]:
    return depth_to_space(x, blocksize=blocksize, mode="DCR")  # the only order before opset 11


@kernel("ai.onnx", "DepthToSpace", since=11)
def depth_to_space(x: np.ndarray, *, blocksize: int, mode: str) -> tuple[np.ndarray, ...]:
    if blocksize is None or blocksize < 1:
        raise ValueError(f"{OP}: blocksize must be a positive int, got {blocksize}")
    if x.ndim != 4:
        raise ValueError(f"{OP}: input must be 4-D NCHW, got shape {x.shape}")
    n, c, h, w = x.shape
    b = blocksize
    if c % (b * b):
        raise ValueError(f"{OP}: C={c} must be a multiple of blocksize^2 = {b * b}")
    depth = c // (b * b)
    if mode == "DCR":  # channel = (row * b + column) * depth + d
        t = x.reshape(n, b, b, depth, h, w).transpose(0, 3, 4, 1, 5, 2)
    elif mode == "CRD":  # channel = (d * b + row) * b + column
        t = x.reshape(n, depth, b, b, h, w).transpose(0, 1, 4, 2, 5, 3)
    else:
        raise ValueError(f"{OP}: mode must be DCR or CRD, got {mode!r}")
    return (np.ascontiguousarray(t).reshape(n, depth, h * b, w * b),)
