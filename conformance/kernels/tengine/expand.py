"""Expand (tengine, op id 92): broadcasts the input to a shape (numpy's bidirectional broadcast).

The shape comes from the second input when it is given and has no zero, else from the first
`dim_num` values of the `ex_shape` parameter (none: a copy), as Tengine's infer_shape does.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "Expand", since=1)
def expand(x: np.ndarray, shape: np.ndarray | None, *, ex_shape: list[int] | None,
           dim_num: int) -> tuple[np.ndarray, ...]:
    target = [int(v) for v in shape.reshape(-1)] if shape is not None else []
    if not target or 0 in target:
        target = list(ex_shape or [])[:dim_num]
    if min(target, default=1) < 0:
        raise ValueError(f"Expand: negative target dims {target}")
    try:
        out = np.broadcast_shapes(x.shape, tuple(target))
    except ValueError as e:
        raise ValueError(f"Expand: {x.shape} does not broadcast with {target}") from e
    return (np.broadcast_to(x, out).copy(),)
