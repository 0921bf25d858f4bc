"""ArgMin (tengine, op id 43): the index of the first smallest value along `axis`, as int32."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel
from conformance.kernels.tengine.argmax import reduce_index


@kernel("tengine", "ArgMin", since=1)
def argmin(x: np.ndarray, *, axis: int, keepdims: int) -> tuple[np.ndarray, ...]:
    return (reduce_index(x, axis, keepdims, "min", "ArgMin"),)
