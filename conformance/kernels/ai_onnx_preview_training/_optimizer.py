"""What the three optimizers share: splitting the variadic inputs into groups of n tensors, and the scalars."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def groups(op: str, tensors: Sequence[np.ndarray], count: int) -> list[list[np.ndarray]]:
    """The variadic inputs as `count` groups of n tensors (X..., G..., ...), each tensor its group's shapes."""
    if not tensors or len(tensors) % count:
        raise ValueError(f"{op}: {len(tensors)} tensors after R and T, expected {count} groups of n")
    n = len(tensors) // count
    split = [list(tensors[k * n:(k + 1) * n]) for k in range(count)]
    for k in range(1, count):
        for i in range(n):
            if split[k][i].shape != split[0][i].shape:
                raise ValueError(f"{op}: tensor {k * n + i} has shape {split[k][i].shape}, "
                                 f"tensor {i} {split[0][i].shape}")
    return split


def scalar(op: str, name: str, value: np.ndarray) -> float:
    if np.size(value) != 1:
        raise ValueError(f"{op}: {name} must be a scalar, got shape {np.shape(value)}")
    return float(np.asarray(value).reshape(()))
