"""Sigmoid (tengine, op id 37): 1 / (1 + exp(-max(x, -30))), Tengine's effective clamp."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel

LOWER_CLAMP = -30.0


@kernel("tengine", "Sigmoid", since=1)
def sigmoid(x: np.ndarray) -> tuple[np.ndarray, ...]:
    work = x.astype(np.promote_types(x.dtype, np.float32), copy=False)
    # Tengine's upper clamp to 30 is overwritten by the lower one; only max(x, -30) remains
    y = 1.0 / (1.0 + np.exp(-np.maximum(work, LOWER_CLAMP)))
    return (y.astype(x.dtype, copy=False),)
