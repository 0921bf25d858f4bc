"""Dropout, inference only: the output is the data and the mask keeps everything.

Random dropout is not reproducible across backends, so this reference kernel does not draw one:
a call that asks for training (is_test=0 before opset 7, training_mode true from opset 12) with a
ratio above 0 raises Unsupported naming that setting (random ops, training-mode Dropout among them, are
the companion issue's). With ratio 0 training is the identity too.
Every version declares the optional mask output, so the kernel always returns (output, mask); the
mask has the data's type before opset 10 (all ones) and is boolean from opset 10 (all true).
"""

from __future__ import annotations

import numpy as np

from conformance.backends.protocol import Unsupported
from conformance.kernels.registry import kernel


def _check_ratio(ratio: float) -> float:
    if not 0 <= ratio < 1:
        raise ValueError(f"Dropout: ratio {ratio} must lie in [0, 1)")
    return ratio


def _training(setting: str, ratio: float) -> Unsupported:
    return Unsupported(f"Dropout: {setting} asks for random dropout with ratio {ratio}; the reference kernel "
                       f"computes inference only (training mode is the companion issue's, 'ai.onnx complete, "
                       f"part 2')")


@kernel("ai.onnx", "Dropout", since=1, until=6)
def dropout_is_test(data: np.ndarray, *, ratio: float, is_test: int) -> tuple[np.ndarray, ...]:
    if not is_test and _check_ratio(ratio) > 0:
        raise _training("is_test=0", ratio)
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
        raise _training("training_mode=true", p)
    return data.copy(), np.ones(data.shape, dtype=bool)
