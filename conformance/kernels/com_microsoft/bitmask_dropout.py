"""com.microsoft BitmaskDropout: ai.onnx Dropout (opset 13) with the mask bit-packed into uint32 words (element i is
bit i % 32 of word i // 32). In training with a ratio above 0 the last word's spare bits are 0; in inference
(training_mode false or absent, or ratio 0) the output is the data and every mask word is all ones, spare bits
included, as onnxruntime's kernel fills it."""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft._dropout import keep_draw, pack_bits, ratio_of, training
from conformance.kernels.registry import kernel


@kernel("com.microsoft", "BitmaskDropout", since=1)
def bitmask_dropout(data: np.ndarray, ratio: np.ndarray | None, training_mode: np.ndarray | None, *,
                    seed: int | None) -> tuple[np.ndarray, ...]:
    p = ratio_of("BitmaskDropout", ratio)
    words = -(-data.size // 32)
    if not training(training_mode) or p == 0:
        return data.copy(), np.full((words,), 0xFFFFFFFF, dtype=np.uint32)
    keep = keep_draw(data.shape, p, seed)
    y = np.where(keep, data.astype(np.float64) * (1.0 / (1.0 - p)), 0.0).astype(data.dtype)
    return y, pack_bits(keep)
