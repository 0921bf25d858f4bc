"""Round (tengine, op id 85): C's round(), halves away from zero."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "Round", since=1)
def round_half_away(x: np.ndarray) -> tuple[np.ndarray, ...]:
    magnitude = np.abs(x)
    whole = np.floor(magnitude)
    # magnitude - whole is exact, so the half test cannot be spoiled by adding 0.5 first
    rounded = whole + (magnitude - whole >= 0.5)
    return (np.copysign(rounded, x).astype(x.dtype, copy=False),)
