"""Min (tengine, op id 47): the elementwise smallest value of one or more tensors of the same shape."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "Min", since=1)
def minimum(*inputs: np.ndarray) -> tuple[np.ndarray, ...]:
    if not inputs:
        raise ValueError("Min: needs at least one input")
    first = inputs[0]
    if any(x.shape != first.shape for x in inputs):
        raise ValueError(f"Min: inputs need one shape, got {[x.shape for x in inputs]}")
    stack = np.stack([x.astype(np.promote_types(first.dtype, np.float32), copy=False) for x in inputs])
    y = np.minimum.reduce(stack)
    return (np.asarray(y).astype(first.dtype, copy=False),)
