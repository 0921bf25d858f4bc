"""Helpers of onnxruntime's dropout variants (BiasDropout, BitmaskDropout, BitmaskBiasDropout). Not kernels.

In training (training_mode true) with a ratio above 0, each element is kept with probability 1 - ratio (a uniform
draw u in [0, 1) keeps it where u >= ratio, as ai.onnx Dropout's reference kernel does; `seed` fixes the draw here,
onnxruntime's Philox values are not reproduced), and output = (data + bias) * keep / (1 - ratio) + residual, in
float64 rounded once. The ratio defaults to 0.5; training_mode to false.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._random import generator


def ratio_of(op: str, ratio: np.ndarray | None) -> float:
    p = 0.5 if ratio is None else float(np.asarray(ratio).reshape(-1)[0])
    if not 0 <= p < 1:
        raise ValueError(f"{op}: ratio {p} must lie in [0, 1)")
    return p


def training(training_mode: np.ndarray | None) -> bool:
    return training_mode is not None and bool(np.asarray(training_mode).reshape(-1)[0])


def keep_draw(shape: tuple[int, ...], ratio: float, seed: int | None) -> np.ndarray:
    return np.asarray(generator(seed).random(size=shape) >= ratio)


def pack_bits(keep: np.ndarray) -> np.ndarray:
    """uint32 words holding `keep` flattened: element i is bit i % 32 of word i // 32; the last word's spare bits 0."""
    flat = keep.reshape(-1).astype(np.uint32)
    words = -(-flat.size // 32)
    padded = np.zeros(words * 32, dtype=np.uint32)
    padded[:flat.size] = flat
    return np.asarray((padded.reshape(words, 32) << np.arange(32, dtype=np.uint32)).sum(axis=1, dtype=np.uint32))


def bias_dropout_output(op: str, data: np.ndarray, bias: np.ndarray, residual: np.ndarray | None, keep: np.ndarray,
                        ratio: float) -> np.ndarray:
    """(data + bias) * keep / (1 - ratio) + residual in float64, rounded once to data's type."""
    if data.ndim < 1 or not (bias.shape == data.shape or bias.shape == (data.shape[-1],)):
        raise ValueError(f"{op}: bias {bias.shape} must have data's shape {data.shape} or be 1-D of its last dim")
    if residual is not None and residual.shape != data.shape:
        raise ValueError(f"{op}: residual {residual.shape} must have data's shape {data.shape}")
    y = (data.astype(np.float64) + bias.astype(np.float64)) * (keep / (1.0 - ratio))
    if residual is not None:
        y = y + residual.astype(np.float64)
    return np.asarray(y).astype(data.dtype)
