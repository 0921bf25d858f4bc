"""Noop (tengine, op id 62): copies its input."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "Noop", since=1)
def noop(x: np.ndarray) -> tuple[np.ndarray, ...]:
    return (x.copy(),)
