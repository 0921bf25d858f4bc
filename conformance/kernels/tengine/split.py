"""Split (tengine, op id 29): Caffe copies, explicit part sizes, or equal parts along one axis."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "Split", since=1)
def split(x: np.ndarray, *, axis: int, split_dim: int, is_caffe: int, is_onnx: int,
          split_sizes: list[int] | None) -> tuple[np.ndarray, ...]:
    if split_dim < 1:
        raise ValueError(f"Split: split_dim must be at least 1, got {split_dim}")
    if is_caffe:
        return tuple(x.copy() for _ in range(split_dim))
    ax = axis if is_onnx else 0  # tengine-lite's loader reads the axis of ONNX splits only
    if not 0 <= ax < x.ndim:
        raise ValueError(f"Split: axis {ax} does not exist in shape {x.shape}")
    sizes = list(split_sizes or [])
    if not sizes:
        if x.shape[ax] % split_dim:
            raise ValueError(f"Split: {x.shape[ax]} does not divide into {split_dim} equal parts")
        sizes = [x.shape[ax] // split_dim] * split_dim
    if sum(sizes) != x.shape[ax] or min(sizes) < 1:
        raise ValueError(f"Split: sizes {sizes} do not add up to {x.shape[ax]}")
    cuts = np.cumsum(sizes)[:-1]
    return tuple(part.copy() for part in np.split(x, cuts, axis=ax))
