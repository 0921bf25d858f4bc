"""com.microsoft IsAllFinite: a bool scalar, true when no element of any input is infinite or NaN (only infinities
with isinf_only, only NaN with isnan_only)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("com.microsoft", "IsAllFinite", since=1)
def is_all_finite(*inputs: np.ndarray, isinf_only: int, isnan_only: int) -> tuple[np.ndarray, ...]:
    if isinf_only and isnan_only:
        raise ValueError("IsAllFinite: isinf_only and isnan_only cannot both be set")
    if not inputs:
        raise ValueError("IsAllFinite: needs at least one input")
    found = False
    for t in inputs:
        bad = np.isinf(t) if isinf_only else np.isnan(t) if isnan_only else ~np.isfinite(t)
        found = found or bool(np.any(bad))
    return (np.array(not found),)
