"""Gather (tengine, op id 76): picks slices along `axis` by index.

ONNX mode (`is_onnx` 1) is numpy's take: the output is input[:axis] + indices.shape + input[axis+1:].
Otherwise the first `indices_num` indices are used and the axis gets that size.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "Gather", since=1)
def gather(x: np.ndarray, indices: np.ndarray, *, axis: int, indices_num: int, is_onnx: int) -> tuple[np.ndarray, ...]:
    if not 0 <= axis < x.ndim:
        raise ValueError(f"Gather: axis {axis} is outside [0, {x.ndim})")
    index = indices.astype(np.int64)
    if not is_onnx:
        if indices_num > index.size:
            raise ValueError(f"Gather: indices_num {indices_num} but only {index.size} indices")
        index = index.reshape(-1)[:indices_num]
    # Tengine does not wrap negative indices: they and indices past the end are out of range.
    if index.size and (index.min() < 0 or index.max() >= x.shape[axis]):
        raise ValueError(f"Gather: indices must lie in [0, {x.shape[axis]}), got {index.min()}..{index.max()}")
    return (np.take(x, index, axis=axis),)
