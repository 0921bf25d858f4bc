"""Mean (tengine, op id 90): the elementwise average of one or more tensors of the same shape."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "Mean", since=1)
def mean(*inputs: np.ndarray) -> tuple[np.ndarray, ...]:
    if not inputs:
        raise ValueError("Mean: needs at least one input")
    first = inputs[0]
    if any(x.shape != first.shape for x in inputs):
        raise ValueError(f"Mean: inputs need one shape, got {[x.shape for x in inputs]}")
    stack = np.stack([x.astype(np.promote_types(first.dtype, np.float32), copy=False) for x in inputs])
    y = stack.sum(axis=0) / len(inputs)
    return (np.asarray(y).astype(first.dtype, copy=False),)
