"""DFT: the discrete Fourier transform along one signal axis; axis an attribute at 17, an optional input from 20.

The last axis holds the real part (size 1) or the real and imaginary parts (size 2). The forward transform is
numpy's `fft` (a one-sided one keeps bins 0 .. floor(n/2)); the inverse `ifft` (scaled by 1/n), and the one-sided
inverse (IRFFT) numpy's `irfft`, whose output is real. Computed in the input's precision (float16 in float32), as
onnx.reference and onnxruntime do (onnx's node suite checks float32 results to 1e-7, rounding artifacts included).
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype
from conformance.kernels.registry import kernel


def _scalar_int(name: str, x: np.ndarray) -> int:
    if np.ndim(x) != 0:
        raise ValueError(f"DFT: {name} must be a scalar, it has shape {list(np.shape(x))}")
    return int(x)


def _dft(x: np.ndarray, dft_length: np.ndarray | None, axis: int, inverse: int, onesided: int) -> np.ndarray:
    rank = x.ndim
    if rank < 2:
        raise ValueError(f"DFT: the input needs rank >= 2 (a signal axis and the complex axis), it has {rank}")
    parts = x.shape[-1]
    if parts not in (1, 2):
        raise ValueError(f"DFT: the last axis holds 1 (real) or 2 (complex) values, not {parts}")
    if not (-rank <= axis <= -2 or 0 <= axis <= rank - 2):
        raise ValueError(f"DFT: axis {axis} must lie in [-{rank}, -2] or [0, {rank - 2}]")
    ax = axis + rank if axis < 0 else axis
    irfft = bool(onesided and inverse)
    if onesided and not inverse and parts != 1:
        raise ValueError("DFT: a one-sided forward DFT takes real input (last axis of size 1)")
    if irfft and parts != 2:
        raise ValueError("DFT: a one-sided inverse DFT takes complex input (last axis of size 2)")
    if dft_length is not None:
        n = _scalar_int("dft_length", dft_length)
    else:
        n = 2 * (x.shape[ax] - 1) if irfft else x.shape[ax]
    if n < 1:
        raise ValueError(f"DFT: the transform length must be >= 1, it is {n}")
    wide = x.astype(work_dtype(x), copy=False)
    signal = wide[..., 0] if parts == 1 else wide[..., 0] + 1j * wide[..., 1]  # the complex axis dropped
    if irfft:
        return np.asarray(np.fft.irfft(signal, n=n, axis=ax)[..., np.newaxis].astype(x.dtype))
    if inverse:
        y = np.fft.ifft(signal, n=n, axis=ax)
    else:
        y = np.fft.fft(signal, n=n, axis=ax)
        if onesided:
            y = np.take(y, np.arange(n // 2 + 1), axis=ax)
    return np.asarray(np.stack([y.real, y.imag], axis=-1).astype(x.dtype))


@kernel("ai.onnx", "DFT", since=17, until=19)
def dft_axis_attribute(input: np.ndarray, dft_length: np.ndarray | None, *, axis: int, inverse: int,
                       onesided: int) -> tuple[np.ndarray, ...]:
    return (_dft(input, dft_length, axis, inverse, onesided),)


@kernel("ai.onnx", "DFT", since=20)
def dft(input: np.ndarray, dft_length: np.ndarray | None, axis: np.ndarray | None, *, inverse: int,
        onesided: int) -> tuple[np.ndarray, ...]:
    ax = -2 if axis is None else _scalar_int("axis", axis)
    return (_dft(input, dft_length, ax, inverse, onesided),)
