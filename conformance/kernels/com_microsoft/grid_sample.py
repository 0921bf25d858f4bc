"""com.microsoft GridSample: ai.onnx GridSample-16's sampling (PyTorch's grid_sample) of a 4-D X, as onnxruntime's
CPU kernel computes it; X and Grid share one float type, which Y keeps."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx.grid_sample import V16_MODES, _grid_sample
from conformance.kernels.registry import kernel


@kernel("com.microsoft", "GridSample", since=1)
def grid_sample(x: np.ndarray, grid: np.ndarray, *, align_corners: int, mode: str,
                padding_mode: str) -> tuple[np.ndarray, ...]:
    if x.ndim != 4:
        raise ValueError(f"GridSample: X must be 4-D (N, C, H, W), got {x.shape}")
    if mode not in V16_MODES:
        raise ValueError(f"GridSample: modes are bilinear, nearest and bicubic, got {mode!r}")
    return _grid_sample(x, grid, V16_MODES[mode], padding_mode, align_corners, max_rank=2)
