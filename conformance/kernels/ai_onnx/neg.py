"""Neg: elementwise -x; signed integers wrap in two's complement (-(-128) is -128 in int8), as C and numpy do."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Neg", since=1)
def neg(x: np.ndarray) -> tuple[np.ndarray, ...]:
    return (np.asarray(np.negative(x)),)
