"""Size: the number of elements of the input, an int64 scalar."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Size", since=1)
def size(data: np.ndarray) -> tuple[np.ndarray, ...]:
    return (np.array(data.size, dtype=np.int64),)
