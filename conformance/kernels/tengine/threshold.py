"""Threshold (tengine, op id 63): 1 where x > threshold, else 0."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "Threshold", since=1)
def threshold(x: np.ndarray, *, threshold: float) -> tuple[np.ndarray, ...]:
    limit = np.asarray(threshold, np.promote_types(x.dtype, np.float32))
    return ((x > limit).astype(x.dtype),)
