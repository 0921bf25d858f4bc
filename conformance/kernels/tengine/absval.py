"""Absval (tengine, op id 68): |x| elementwise."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "Absval", since=1)
def absval(x: np.ndarray) -> tuple[np.ndarray, ...]:
    return (np.abs(x),)
