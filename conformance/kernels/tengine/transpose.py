"""Transpose (tengine, op id 77): output axis i is input axis perm[i] (ranks 2 to 6)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "Transpose", since=1)
def transpose(x: np.ndarray, *, perm: list[int]) -> tuple[np.ndarray, ...]:
    if not 2 <= x.ndim <= 6:
        raise ValueError(f"Transpose: Tengine handles ranks 2 to 6, got shape {x.shape}")
    if sorted(perm) != list(range(x.ndim)):
        raise ValueError(f"Transpose: perm {perm} is not a permutation of the {x.ndim} axes")
    return (np.ascontiguousarray(np.transpose(x, perm)),)
