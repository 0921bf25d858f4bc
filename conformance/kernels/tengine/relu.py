"""ReLU (tengine, op id 20): x for x >= 0, negative_slope * x otherwise."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "ReLU", since=1)
def relu(x: np.ndarray, *, negative_slope: float) -> tuple[np.ndarray, ...]:
    work = x.astype(np.promote_types(x.dtype, np.float32), copy=False)
    y = np.where(work < 0, work * np.asarray(negative_slope, work.dtype), work)
    return (y.astype(x.dtype, copy=False),)
