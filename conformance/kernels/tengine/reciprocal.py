"""Reciprocal (tengine, op id 103): 1 / x."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "Reciprocal", since=1)
def reciprocal(x: np.ndarray) -> tuple[np.ndarray, ...]:
    work = x.astype(np.promote_types(x.dtype, np.float32), copy=False)
    with np.errstate(divide="ignore"):
        y = 1.0 / work
    return (y.astype(x.dtype, copy=False),)
