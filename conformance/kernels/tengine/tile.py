"""Tile (tengine, op id 96): whole copies of the input along its axes (numpy's tile), Caffe's or ONNX's flavour.

Caffe (`frame_flag` 0) copies `reps[0]` times along axis 1; ONNX (1) copies along every axis as many times as the
`repeats` input says. Tengine's own kernel computes neither (its schema's doc says how); this is the frameworks'.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "Tile", since=1)
def tile(x: np.ndarray, repeats: np.ndarray | None, *, frame_flag: int, reps_size: int,
         reps: list[int] | None) -> tuple[np.ndarray, ...]:
    if frame_flag != 0:
        if repeats is None:
            raise ValueError("Tile: the ONNX flavour needs its repeats input")
        counts = [int(r) for r in repeats.reshape(-1)]
        if len(counts) != x.ndim or min(counts, default=0) < 0:
            raise ValueError(f"Tile: repeats {counts} for an input of shape {x.shape}")
    else:
        if not reps or reps[0] < 1 or x.ndim < 2:
            raise ValueError(f"Tile: Caffe's flavour needs reps[0] >= 1 and rank >= 2, got {reps} for {x.shape}")
        counts = [reps[0] if d == 1 else 1 for d in range(x.ndim)]
    return (np.tile(x, counts),)
