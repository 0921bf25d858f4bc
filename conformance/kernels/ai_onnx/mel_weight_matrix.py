"""MelWeightMatrix: triangular filters over the floor(dft_length / 2) + 1 bins of a one-sided spectrum, one per
mel band, each peaking at 1.

mel(f) = 2595 log10(1 + f / 700). num_mel_bins + 2 points are spaced evenly on the mel scale from
mel(lower_edge_hertz) in steps of (mel(upper_edge_hertz) - mel(lower_edge_hertz)) / (num_mel_bins + 2), turned back
into hertz and into bin numbers floor((dft_length + 1) * f / sample_rate). Band i rises linearly from its point i
(0) to point i + 1 (1), and falls to point i + 2 (0, that bin excluded); a band whose first two points share a
bin has just its 1 there. This is onnx.reference's and onnxruntime's construction (the step divides by
num_mel_bins + 2, so the last point stays below upper_edge_hertz). Computed in double.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._signal import as_output_type, scalar_value
from conformance.kernels.registry import kernel


def _int_at_least(name: str, x: np.ndarray, least: int) -> int:
    value = scalar_value("MelWeightMatrix", name, x)
    if not isinstance(value, int) or value < least:
        raise ValueError(f"MelWeightMatrix: {name} must be an integer >= {least}, got {value}")
    return value


def _mel(hertz: float) -> float:
    return float(2595 * np.log1p(hertz / 700) / np.log(10))


@kernel("ai.onnx", "MelWeightMatrix", since=17)
def mel_weight_matrix(num_mel_bins: np.ndarray, dft_length: np.ndarray, sample_rate: np.ndarray,
                      lower_edge_hertz: np.ndarray, upper_edge_hertz: np.ndarray, *,
                      output_datatype: int) -> tuple[np.ndarray, ...]:
    bands = _int_at_least("num_mel_bins", num_mel_bins, 1)
    length = _int_at_least("dft_length", dft_length, 1)
    rate = _int_at_least("sample_rate", sample_rate, 1)
    low = float(scalar_value("MelWeightMatrix", "lower_edge_hertz", lower_edge_hertz))
    high = float(scalar_value("MelWeightMatrix", "upper_edge_hertz", upper_edge_hertz))
    if not 0 <= low <= high <= rate / 2:
        raise ValueError(f"MelWeightMatrix: the edges must satisfy 0 <= lower ({low}) <= upper ({high}) <= "
                         f"sample_rate / 2 ({rate / 2})")
    spectrum = length // 2 + 1
    step = (_mel(high) - _mel(low)) / (bands + 2)
    mels = _mel(low) + np.arange(bands + 2, dtype=np.float64) * step
    hertz = 700 * np.expm1(mels * np.log(10) / 2595)
    points = np.floor((length + 1) * hertz / rate).astype(np.int64)
    left, center, right = points[:-2], points[1:-1], points[2:]  # per band
    j = np.arange(spectrum)[:, np.newaxis]  # bins down, bands across
    with np.errstate(invalid="ignore", divide="ignore"):
        rising = np.where((left <= j) & (j <= center) & (center > left), (j - left) / (center - left), 0.0)
        falling = np.where((center <= j) & (j < right), (right - j) / (right - center), 0.0)
    peak = (j == center) & (center == left)
    weights = np.where(peak, 1.0, np.maximum(rising, falling))
    return (as_output_type("MelWeightMatrix", weights, output_datatype),)
