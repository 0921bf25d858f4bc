"""Logistic (tengine, op id 33): the logistic sigmoid 1 / (1 + exp(-x))."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "Logistic", since=1)
def logistic(x: np.ndarray) -> tuple[np.ndarray, ...]:
    work = x.astype(np.promote_types(x.dtype, np.float32), copy=False)
    with np.errstate(over="ignore"):
        y = 1 / (1 + np.exp(-work))
    return (y.astype(x.dtype, copy=False),)
