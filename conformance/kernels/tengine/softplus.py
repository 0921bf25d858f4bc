"""Softplus (tengine, op id 102): log(exp(x) + 1) in double precision, as Tengine's C code does."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "Softplus", since=1)
def softplus(x: np.ndarray) -> tuple[np.ndarray, ...]:
    with np.errstate(over="ignore"):
        y = np.log(np.exp(x.astype(np.float64)) + 1.0)
    return (y.astype(x.dtype),)
