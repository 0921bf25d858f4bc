"""Dropout: in training each element is kept with probability 1 - ratio and scaled by 1 / (1 - ratio), the others
are 0, and the mask says which were kept; otherwise the output is the data and the mask keeps everything.

Training is `is_test` 0 before opset 7 and `training_mode` true from opset 12, with a ratio above 0 (ratio 0 keeps
every element, as inference does). Opsets 7 to 11 have no training switch in the node: the runtime decides, and
this reference takes them in inference. A uniform draw u in [0, 1) keeps an element where u >= ratio; the output is
data * mask * scale computed in float64 and rounded once to the data's type, so it agrees with the mask exactly.
`seed` (opset 12 on) fixes the draw in this reference (see `_random`); onnx defines no values for it.
Every version declares the optional mask output, so the kernel always returns (output, mask); the mask has the
data's type before opset 10 (ones and zeros) and is boolean from opset 10.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._random import generator
from conformance.kernels.registry import kernel


def _check_ratio(ratio: float) -> float:
    if not 0 <= ratio < 1:
        raise ValueError(f"Dropout: ratio {ratio} must lie in [0, 1)")
    return ratio


def _train(data: np.ndarray, ratio: float, seed: int | None) -> tuple[np.ndarray, np.ndarray]:
    """(output, keep): each element kept with probability 1 - ratio, the kept ones scaled by 1 / (1 - ratio)."""
    keep = generator(seed).random(size=data.shape) >= ratio
    scaled = data.astype(np.float64) * (1.0 / (1.0 - ratio))
    return np.where(keep, scaled, 0.0).astype(data.dtype), keep


@kernel("ai.onnx", "Dropout", since=1, until=6)
def dropout_is_test(data: np.ndarray, *, ratio: float, is_test: int) -> tuple[np.ndarray, ...]:
    if not is_test and _check_ratio(ratio) > 0:
        output, keep = _train(data, ratio, None)
        return output, keep.astype(data.dtype)
    return data.copy(), np.ones_like(data)


@kernel("ai.onnx", "Dropout", since=7, until=9)
def dropout_typed_mask(data: np.ndarray, *, ratio: float) -> tuple[np.ndarray, ...]:
    _check_ratio(ratio)
    return data.copy(), np.ones_like(data)


@kernel("ai.onnx", "Dropout", since=10, until=11)
def dropout_bool_mask(data: np.ndarray, *, ratio: float) -> tuple[np.ndarray, ...]:
    _check_ratio(ratio)
    return data.copy(), np.ones(data.shape, dtype=bool)


@kernel("ai.onnx", "Dropout", since=12)
def dropout(data: np.ndarray, ratio: np.ndarray | None, training_mode: np.ndarray | None, *,
            seed: int | None) -> tuple[np.ndarray, ...]:
    p = 0.5 if ratio is None else _check_ratio(float(np.asarray(ratio).reshape(-1)[0]))  # an absent ratio is 0.5
    if training_mode is not None and bool(np.asarray(training_mode).reshape(-1)[0]) and p > 0:
        output, keep = _train(data, p, seed)
        return output, keep
    return data.copy(), np.ones(data.shape, dtype=bool)
