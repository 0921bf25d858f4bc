"""com.microsoft Irfft: the inverse of Rfft over the signal_ndim axes before X's (real, imaginary) axis, as
onnxruntime's CUDA kernel computes it: m one-sided bins along the last signal axis give 2 * m - 1 samples (cuFFT's
complex-to-real transform of that length), and the result is divided by the product of the signal lengths."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("com.microsoft", "Irfft", since=1)
def irfft(x: np.ndarray, *, signal_ndim: int, normalized: int, onesided: int) -> tuple[np.ndarray, ...]:
    if normalized != 0 or onesided != 1:
        raise ValueError(f"Irfft: only normalized = 0 and onesided = 1 are defined, got {normalized}, {onesided}")
    if not 1 <= signal_ndim <= 3 or x.ndim < signal_ndim + 1 or x.shape[-1] != 2:
        raise ValueError(f"Irfft: X {x.shape} needs signal_ndim ({signal_ndim}, 1 to 3) axes and a last axis of 2")
    wt = np.float64 if x.dtype == np.float64 else np.float32
    ct = np.complex128 if wt == np.float64 else np.complex64
    z = np.ascontiguousarray(x, dtype=wt).view(ct)[..., 0]  # (real, imaginary) pairs as complex numbers
    axes = tuple(range(z.ndim - signal_ndim, z.ndim))
    lengths = [z.shape[a] for a in axes[:-1]] + [2 * z.shape[-1] - 1]
    y = np.fft.irfftn(z, s=lengths, axes=axes)
    return (y.astype(x.dtype),)
