"""Transpose: permute axes by `perm` (its schema default reverses them)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Transpose", since=1)
def transpose(x: np.ndarray, *, perm: list[int]) -> tuple[np.ndarray, ...]:
    if sorted(int(p) for p in perm) != list(range(x.ndim)):
        raise ValueError(f"Transpose: perm {list(perm)} is not a permutation of range({x.ndim})")
    return (np.transpose(x, perm).copy(),)  # .copy(), not ascontiguousarray: that makes a 0-d input 1-d
