"""SquaredDifference (tengine, op id 84): (a - b)^2 of two same-shaped tensors."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "SquaredDifference", since=1)
def squared_difference(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, ...]:
    if a.shape != b.shape:
        raise ValueError(f"SquaredDifference: shapes {a.shape} and {b.shape} differ (Tengine does not broadcast)")
    work = np.promote_types(a.dtype, np.float32)
    diff = a.astype(work, copy=False) - b.astype(work, copy=False)
    return ((diff * diff).astype(a.dtype, copy=False),)
