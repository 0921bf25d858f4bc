"""Clip (tengine, op id 87): min(max(x, min), max) elementwise."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "Clip", since=1)
def clip(x: np.ndarray, *, max: float, min: float) -> tuple[np.ndarray, ...]:
    work = x.astype(np.promote_types(x.dtype, np.float32), copy=False)
    # Tengine tests the upper bound first, then the lower one: with min > max every value becomes min.
    y = np.where(work > max, np.asarray(max, work.dtype), work)
    y = np.where(y < min, np.asarray(min, work.dtype), y)
    return (y.astype(x.dtype, copy=False),)
