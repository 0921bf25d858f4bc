"""SpaceToDepth (tengine, op id 79): TensorFlow/ONNX space-to-depth on NCHW data.

Output channel (by * b + bx) * C + c at (h, w) is input (c, h * b + by, w * b + bx).
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "SpaceToDepth", since=1)
def space_to_depth(x: np.ndarray, *, block_size: int) -> tuple[np.ndarray, ...]:
    if x.ndim != 4:
        raise ValueError(f"SpaceToDepth: input must be NCHW (rank 4), got shape {x.shape}")
    n, c, h, w = x.shape
    b = block_size
    if b < 1 or h % b or w % b:
        raise ValueError(f"SpaceToDepth: H={h} and W={w} must be multiples of block_size {b}")
    blocks = x.reshape(n, c, h // b, b, w // b, b)  # n, c, oh, by, ow, bx
    y = blocks.transpose(0, 3, 5, 1, 2, 4).reshape(n, c * b * b, h // b, w // b)
    return (np.ascontiguousarray(y),)
