"""SplitToSequence: the input cut along `axis` into a sequence. Without `split`, parts of one (the axis dropped
when keepdims is 0); a scalar `split` k gives parts of k (the last one shorter when k does not divide the
axis); a 1-D `split` gives the lengths. `keepdims` only matters without `split`."""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx", "SplitToSequence", since=11, exact_types=True)  # data moves as it is: no widening
def split_to_sequence(input: np.ndarray, split: np.ndarray | None, *, axis: int,
                      keepdims: int) -> tuple[Any, ...]:
    rank = input.ndim
    if not -rank <= axis < rank:
        raise ValueError(f"SplitToSequence: axis {axis} is outside [{-rank}, {rank - 1}]")
    a = axis + rank if axis < 0 else axis
    size = input.shape[a]
    if split is None:
        parts = np.split(input, size, axis=a) if size else []
        return ([p if keepdims else np.squeeze(p, axis=a) for p in parts],)
    lengths = np.asarray(split).astype(np.int64)
    if lengths.ndim == 0:
        step = int(lengths)
        if step < 1:
            raise ValueError(f"SplitToSequence: a scalar split must be positive, got {step}")
        cuts = np.arange(step, size, step)
        return ([p.copy() for p in np.split(input, cuts, axis=a)] if size else [],)
    if lengths.ndim != 1 or (lengths < 0).any() or int(lengths.sum()) != size:
        raise ValueError(f"SplitToSequence: split {lengths.tolist()} does not cut an axis of {size}")
    return ([p.copy() for p in np.split(input, np.cumsum(lengths)[:-1], axis=a)],)
