"""Permute (tengine, op id 15): transposes the axes by (order0, order1, order2, order3)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "Permute", since=1)
def permute(x: np.ndarray, *, flag: int, order0: int, order1: int, order2: int, order3: int) -> tuple[np.ndarray, ...]:
    # flag is unused by Tengine.
    perm = [order0, order1, order2, order3][:x.ndim]
    if x.ndim not in (3, 4) or sorted(perm) != list(range(x.ndim)):
        raise ValueError(f"Permute: order {perm} is not a permutation of the axes of a rank-3 or rank-4 input "
                         f"{x.shape}")
    return (np.ascontiguousarray(np.transpose(x, perm)),)
