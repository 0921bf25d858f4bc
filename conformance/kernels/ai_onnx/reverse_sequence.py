"""ReverseSequence: for each batch entry b, the first sequence_lens[b] steps along `time_axis` in reverse
order, the remaining steps as they are."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel

OP = "ReverseSequence"


@kernel("ai.onnx", "ReverseSequence", since=10)
def reverse_sequence(x: np.ndarray, sequence_lens: np.ndarray, *, batch_axis: int,
                     time_axis: int) -> tuple[np.ndarray, ...]:
    if x.ndim < 2:
        raise ValueError(f"{OP}: input must have rank >= 2, got shape {x.shape}")
    if {batch_axis, time_axis} != {0, 1}:
        raise ValueError(f"{OP}: batch_axis {batch_axis} and time_axis {time_axis} must be 0 and 1 in some order")
    batch, steps = x.shape[batch_axis], x.shape[time_axis]
    lens = np.asarray(sequence_lens, dtype=np.int64)
    if lens.shape != (batch,):
        raise ValueError(f"{OP}: sequence_lens {lens.shape} must have shape ({batch},)")
    if ((lens < 0) | (lens > steps)).any():
        raise ValueError(f"{OP}: sequence_lens {lens.tolist()} must lie in [0, {steps}]")
    t = np.arange(steps, dtype=np.int64)[None, :]
    source = np.where(t < lens[:, None], lens[:, None] - 1 - t, t)  # (batch, steps): the step each one reads
    moved = np.moveaxis(x, (batch_axis, time_axis), (0, 1))
    picked = moved[np.arange(batch)[:, None], source]
    return (np.ascontiguousarray(np.moveaxis(picked, (0, 1), (batch_axis, time_axis))),)
