"""com.microsoft BitmaskBiasDropout: BiasDropout with the mask bit-packed into uint32 words (element i is bit i % 32 of
word i // 32; the last word's spare bits 0). In inference the mask keeps every element (its spare bits still 0, as
onnxruntime's kernel, run with ratio 0, writes them)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft._dropout import (
    bias_dropout_output,
    keep_draw,
    pack_bits,
    ratio_of,
    training,
)
from conformance.kernels.registry import kernel


@kernel("com.microsoft", "BitmaskBiasDropout", since=1)
def bitmask_bias_dropout(data: np.ndarray, bias: np.ndarray, residual: np.ndarray | None, ratio: np.ndarray | None,
                         training_mode: np.ndarray | None, *, seed: int | None) -> tuple[np.ndarray, ...]:
    p = ratio_of("BitmaskBiasDropout", ratio)
    if not training(training_mode):
        p = 0.0
    keep = keep_draw(data.shape, p, seed) if p > 0 else np.ones(data.shape, dtype=bool)
    return bias_dropout_output("BitmaskBiasDropout", data, bias, residual, keep, p), pack_bits(keep)
