"""Hardsigmoid (tengine, op id 64): clip(alpha * x + beta, 0, 1) elementwise."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "Hardsigmoid", since=1)
def hardsigmoid(x: np.ndarray, *, alpha: float, beta: float) -> tuple[np.ndarray, ...]:
    work = x.astype(np.promote_types(x.dtype, np.float32), copy=False)
    # Tengine compares x with -beta/alpha and (1 - beta)/alpha; clipping alpha * x + beta is the same map.
    y = np.clip(work * np.asarray(alpha, work.dtype) + np.asarray(beta, work.dtype), 0, 1)
    return (y.astype(x.dtype, copy=False),)
