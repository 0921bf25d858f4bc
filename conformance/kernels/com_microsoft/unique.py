"""com.microsoft Unique: the distinct values of a 1-d tensor in the order they first occur, each input element's
position among them, and their counts. Values compare with `==` as onnxruntime's kernel compares them: -0.0 and
0.0 are one value (the first kept), every NaN is a value of its own."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("com.microsoft", "Unique", since=1)
def unique(x: np.ndarray) -> tuple[np.ndarray, ...]:
    if x.ndim != 1:
        raise ValueError(f"Unique: x must be 1-d, it has shape {list(x.shape)}")
    keys = x.tolist()
    first: dict[object, int] = {}
    idx = np.empty(x.shape[0], dtype=np.int64)
    order: list[int] = []
    for i, v in enumerate(keys):
        if isinstance(v, float) and v != v:  # NaN: never equal to an earlier value
            slot = len(order)
            order.append(i)
        else:
            key = v + 0.0 if isinstance(v, float) else v  # -0.0 and 0.0 share a key
            slot = first.setdefault(key, len(order))
            if slot == len(order):
                order.append(i)
        idx[i] = slot
    counts = np.bincount(idx, minlength=len(order)).astype(np.int64)
    return (x[np.asarray(order, dtype=np.int64)], idx, counts)
