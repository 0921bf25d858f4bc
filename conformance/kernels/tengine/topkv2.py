"""TopKV2 (tengine, op id 44): k largest values of each last-axis row, descending, and their int32 indices."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "TopKV2", since=1)
def topkv2(x: np.ndarray, *, k: int, sorted: int) -> tuple[np.ndarray, ...]:
    # `sorted` is TensorFlow's flag; Tengine's kernel sorts descending regardless
    if x.ndim < 1 or not 1 <= k <= x.shape[-1]:
        raise ValueError(f"TopKV2: k={k} must lie in [1, {x.shape[-1] if x.ndim else 0}]")
    # a stable sort of the negated values lists equal values by increasing index
    order = np.argsort(-x, axis=-1, kind="stable")[..., :k]
    values = np.take_along_axis(x, order, axis=-1)
    return (values, order.astype(np.int32))
