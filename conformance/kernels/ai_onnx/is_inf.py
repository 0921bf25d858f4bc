"""IsInf: true at +inf when detect_positive is 1 and at -inf when detect_negative is 1; false elsewhere."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx", "IsInf", since=10)
def is_inf(x: np.ndarray, *, detect_negative: int, detect_positive: int) -> tuple[np.ndarray, ...]:
    positive = np.isposinf(x) if detect_positive else np.zeros(x.shape, dtype=bool)
    negative = np.isneginf(x) if detect_negative else np.zeros(x.shape, dtype=bool)
    return (np.asarray(positive | negative),)
