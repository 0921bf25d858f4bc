"""com.microsoft Rfft: the unnormalized one-sided DFT of a real signal over X's last signal_ndim axes, with a
trailing axis of 2 for (real, imaginary) (onnxruntime's CUDA kernel, cuFFT's real-to-complex transform)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("com.microsoft", "Rfft", since=1)
def rfft(x: np.ndarray, *, signal_ndim: int, normalized: int, onesided: int) -> tuple[np.ndarray, ...]:
    if normalized != 0 or onesided != 1:
        raise ValueError(f"Rfft: only normalized = 0 and onesided = 1 are defined, got {normalized}, {onesided}")
    if not 1 <= signal_ndim <= 3 or x.ndim < signal_ndim:
        raise ValueError(f"Rfft: signal_ndim {signal_ndim} must be 1 to 3 and at most X's rank {x.ndim}")
    wt = np.float64 if x.dtype == np.float64 else np.float32
    axes = tuple(range(x.ndim - signal_ndim, x.ndim))
    spectrum = np.fft.rfftn(x.astype(wt), axes=axes)
    y = np.stack([spectrum.real, spectrum.imag], axis=-1)
    return (y.astype(x.dtype),)
