"""Tile: copies of the input side by side; opset 1 along one `axis` (`tiles` times), from 6 along every axis."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import normalize_axes
from conformance.kernels.registry import kernel


def _one(name: str, x: np.ndarray) -> int:
    if x.size != 1:
        raise ValueError(f"Tile: {name} must hold one value, it has shape {list(x.shape)}")
    return int(x.reshape(-1)[0])  # typed T (float) at opset 1: an integral value read as an int


@kernel("ai.onnx", "Tile", since=1, until=5)
def tile_axis(input: np.ndarray, tiles: np.ndarray, axis: np.ndarray) -> tuple[np.ndarray, ...]:
    (a,) = normalize_axes("Tile", [_one("axis", axis)], input.ndim)
    count = _one("tiles", tiles)
    if count < 0:
        raise ValueError(f"Tile: tiles is {count}, it must be >= 0")
    reps = [1] * input.ndim
    reps[a] = count
    return (np.tile(input, reps),)


@kernel("ai.onnx", "Tile", since=6)
def tile(input: np.ndarray, repeats: np.ndarray) -> tuple[np.ndarray, ...]:
    reps = [int(r) for r in np.asarray(repeats).reshape(-1)]
    if repeats.ndim != 1 or len(reps) != input.ndim:
        raise ValueError(f"Tile: repeats of shape {list(repeats.shape)} must be 1-D with one value per input axis "
                         f"({input.ndim})")
    if any(r < 0 for r in reps):
        raise ValueError(f"Tile: repeats {reps} must be >= 0")
    return (np.tile(input, reps) if reps else input.copy(),)
