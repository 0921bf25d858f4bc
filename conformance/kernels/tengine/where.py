"""Where (tengine, op id 95): a where the (float) condition is non-zero, b elsewhere; no broadcasting."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "Where", since=1)
def where(condition: np.ndarray, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, ...]:
    if not condition.size == a.size == b.size:
        raise ValueError(f"Where: condition {condition.shape}, A {a.shape} and B {b.shape} must have the same "
                         "number of elements")
    picked = np.where(condition.reshape(-1) != 0, a.reshape(-1), b.reshape(-1))
    return (picked.reshape(condition.shape).astype(a.dtype, copy=False),)
