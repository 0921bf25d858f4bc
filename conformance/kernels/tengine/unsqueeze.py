"""Unsqueeze (tengine, op id 88): inserts size-1 axes; one negative axis counts from the input's back."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


def _positions(axises: list[int], rank: int) -> list[int]:
    if len(axises) == 1:
        (a,) = axises
        if not -rank <= a <= rank:
            raise ValueError(f"Unsqueeze: axis {a} is outside [-{rank}, {rank}]")
        return [a + rank if a < 0 else a]
    out_rank = rank + len(axises)
    if len(set(axises)) != len(axises) or any(not 0 <= a < out_rank for a in axises):
        raise ValueError(f"Unsqueeze: axes {axises} must be distinct positions in [0, {out_rank})")
    return list(axises)


@kernel("tengine", "Unsqueeze", since=1)
def unsqueeze(x: np.ndarray, *, axises: list[int]) -> tuple[np.ndarray, ...]:
    if not axises:
        raise ValueError("Unsqueeze: at least one axis is needed")
    positions = set(_positions(list(axises), x.ndim))
    dims = iter(x.shape)
    out = [1 if i in positions else next(dims) for i in range(x.ndim + len(axises))]
    return (x.reshape(out),)
