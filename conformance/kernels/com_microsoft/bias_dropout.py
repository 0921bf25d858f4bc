"""com.microsoft BiasDropout: output = (data + bias) * mask / (1 - ratio) + residual with a boolean mask, each element
kept with probability 1 - ratio in training (see `_dropout`); in inference (training_mode false or absent) the mask
keeps everything and the output is data + bias + residual, as onnxruntime's kernel computes it with ratio 0."""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft._dropout import bias_dropout_output, keep_draw, ratio_of, training
from conformance.kernels.registry import kernel


@kernel("com.microsoft", "BiasDropout", since=1)
def bias_dropout(data: np.ndarray, bias: np.ndarray, residual: np.ndarray | None, ratio: np.ndarray | None,
                 training_mode: np.ndarray | None, *, seed: int | None) -> tuple[np.ndarray, ...]:
    p = ratio_of("BiasDropout", ratio)
    if not training(training_mode):
        p = 0.0
    keep = keep_draw(data.shape, p, seed) if p > 0 else np.ones(data.shape, dtype=bool)
    return bias_dropout_output("BiasDropout", data, bias, residual, keep, p), keep
