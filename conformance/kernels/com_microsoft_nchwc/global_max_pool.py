"""com.microsoft.nchwc GlobalMaxPool: ai.onnx GlobalMaxPool of a blocked tensor (each channel's max over its pixels)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft_nchwc._nchwc import blocks_of, to_blocks, unblock
from conformance.kernels.registry import kernel


@kernel("com.microsoft.nchwc", "GlobalMaxPool", since=1)
def global_max_pool(x: np.ndarray) -> tuple[np.ndarray, ...]:
    blocks_of("GlobalMaxPool", x)
    y = np.max(unblock(x), axis=(2, 3), keepdims=True)
    return (to_blocks(y.astype(x.dtype)),)
