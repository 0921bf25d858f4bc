"""Mish (tengine, op id 97): x * tanh(softplus(x))."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "Mish", since=1)
def mish(x: np.ndarray) -> tuple[np.ndarray, ...]:
    work = x.astype(np.promote_types(x.dtype, np.float32), copy=False)
    y = work * np.tanh(np.logaddexp(0, work))
    return (y.astype(x.dtype, copy=False),)
