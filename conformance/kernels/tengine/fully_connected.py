"""FullyConnected (tengine, op id 11): rows of the flattened input times the transposed [N, K] weight."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "FullyConnected", since=1)
def fully_connected(x: np.ndarray, weight: np.ndarray, bias: np.ndarray | None, *,
                    num_output: int) -> tuple[np.ndarray, ...]:
    # num_output only repeats weight.shape[0]; Tengine computes from the weight, and so do we.
    if not 2 <= x.ndim <= 4 or weight.ndim != 2:
        raise ValueError(f"FullyConnected: input {x.shape} must have rank 2 to 4 and weight {weight.shape} rank 2")
    m = x.shape[0]
    n, k = weight.shape
    rows = x.reshape(m, -1)
    if rows.shape[1] != k:
        raise ValueError(f"FullyConnected: input {x.shape} flattens to {rows.shape[1]} values, weight wants {k}")
    work = np.promote_types(x.dtype, np.float32)
    y = rows.astype(work, copy=False) @ weight.astype(work, copy=False).T
    if bias is not None:
        if bias.size != n:
            raise ValueError(f"FullyConnected: bias needs {n} values, got shape {bias.shape}")
        y = y + bias.reshape(n).astype(work, copy=False)
    return (y.reshape((m, n) + (1,) * (x.ndim - 2)).astype(x.dtype, copy=False),)
