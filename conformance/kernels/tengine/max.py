"""Max (tengine, op id 46): the elementwise largest value of one or more tensors of the same shape."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "Max", since=1)
def maximum(*inputs: np.ndarray) -> tuple[np.ndarray, ...]:
    if not inputs:
        raise ValueError("Max: needs at least one input")
    first = inputs[0]
    if any(x.shape != first.shape for x in inputs):
        raise ValueError(f"Max: inputs need one shape, got {[x.shape for x in inputs]}")
    stack = np.stack([x.astype(np.promote_types(first.dtype, np.float32), copy=False) for x in inputs])
    y = np.maximum.reduce(stack)
    return (np.asarray(y).astype(first.dtype, copy=False),)
