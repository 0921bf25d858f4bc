"""STFT: frames of `frame_length` samples every `frame_step` samples of a [batch, length, 1 or 2] signal, each
multiplied by the window and Fourier-transformed.

frames = floor((length - frame_length) / frame_step) + 1. frame_length defaults to the window's length, else to
the signal's; the window to all ones. onesided keeps bins 0 .. floor(frame_length / 2) (for a complex signal too,
as onnx.reference and onnxruntime do). Computed in the signal's precision (float16 in float32), as both of them do.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype
from conformance.kernels.ai_onnx._signal import scalar_value
from conformance.kernels.registry import kernel


def _positive_int(name: str, x: np.ndarray) -> int:
    value = scalar_value("STFT", name, x)
    if not isinstance(value, int) or value < 1:
        raise ValueError(f"STFT: {name} must be an integer >= 1, got {value}")
    return value


@kernel("ai.onnx", "STFT", since=17)
def stft(signal: np.ndarray, frame_step: np.ndarray, window: np.ndarray | None, frame_length: np.ndarray | None,
         *, onesided: int) -> tuple[np.ndarray, ...]:
    if signal.ndim != 3 or signal.shape[2] not in (1, 2):
        raise ValueError(f"STFT: the signal must be [batch, length, 1 or 2], it is {list(signal.shape)}")
    length = signal.shape[1]
    step = _positive_int("frame_step", frame_step)
    if window is not None and window.ndim != 1:
        raise ValueError(f"STFT: the window must be 1-D, it has shape {list(window.shape)}")
    if frame_length is not None:
        size = _positive_int("frame_length", frame_length)
        if window is not None and window.shape[0] != size:
            raise ValueError(f"STFT: the window has {window.shape[0]} values, frame_length is {size}")
    else:
        size = window.shape[0] if window is not None else length
    if not 1 <= size <= length:
        raise ValueError(f"STFT: a frame of {size} samples must fit the signal of {length}")
    frames = (length - size) // step + 1
    wide = signal.astype(work_dtype(signal), copy=False)
    samples = wide[..., 0] if signal.shape[2] == 1 else wide[..., 0] + 1j * wide[..., 1]
    starts = np.arange(frames) * step
    framed = samples[:, starts[:, np.newaxis] + np.arange(size)]  # [batch, frames, size]
    if window is not None:
        framed = framed * window.astype(wide.dtype, copy=False)
    y = np.fft.fft(framed, axis=-1)
    if onesided:
        y = y[..., :size // 2 + 1]
    return (np.asarray(np.stack([y.real, y.imag], axis=-1).astype(signal.dtype)),)
