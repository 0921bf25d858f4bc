"""SpaceToDepth: move blocksize x blocksize spatial blocks into channels (DCR order; CRD from opset 28)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx", "SpaceToDepth", since=1, until=27)
def space_to_depth_v1(x: np.ndarray, *, blocksize: int) -> tuple[np.ndarray, ...]:
    return space_to_depth(x, blocksize=blocksize, mode="DCR")  # the only order before opset 28


@kernel("ai.onnx", "SpaceToDepth", since=28)
def space_to_depth(x: np.ndarray, *, blocksize: int, mode: str) -> tuple[np.ndarray, ...]:
    if blocksize is None or blocksize < 1:
        raise ValueError(f"SpaceToDepth: blocksize must be a positive int, got {blocksize}")
    if x.ndim != 4:
        raise ValueError(f"SpaceToDepth: input must be 4-D NCHW, got shape {x.shape}")
    n, c, h, w = x.shape
    b = blocksize
    if h % b or w % b:
        raise ValueError(f"SpaceToDepth: H={h} and W={w} must be multiples of blocksize {b}")
    t = x.reshape(n, c, h // b, b, w // b, b)
    if mode == "DCR":
        t = t.transpose(0, 3, 5, 1, 2, 4)  # channel index = (bh * b + bw) * C + c
    elif mode == "CRD":
        t = t.transpose(0, 1, 3, 5, 2, 4)  # channel index = c * b * b + bh * b + bw
    else:
        raise ValueError(f"SpaceToDepth: mode must be DCR or CRD, got {mode!r}")
    return (np.ascontiguousarray(t).reshape(n, c * b * b, h // b, w // b),)
