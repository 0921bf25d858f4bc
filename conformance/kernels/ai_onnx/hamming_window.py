"""HammingWindow: w[n] = alpha - beta cos(2 pi n / N) for n in [0, size), with N = size when periodic, size - 1
when symmetric; alpha = 25/46 and beta = 1 - alpha, as onnx's function body has them (not 0.54 and 0.46).

Computed in double and converted once to the type output_datatype names (see `_signal.cosine_window`).
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._signal import cosine_window
from conformance.kernels.registry import kernel

_ALPHA = 25 / 46  # 1 - _ALPHA is exact in double, so alpha + beta is 1


@kernel("ai.onnx", "HammingWindow", since=17)
def hamming_window(size: np.ndarray, *, output_datatype: int, periodic: int) -> tuple[np.ndarray, ...]:
    return (cosine_window("HammingWindow", size, periodic, output_datatype, (_ALPHA, 1 - _ALPHA)),)
