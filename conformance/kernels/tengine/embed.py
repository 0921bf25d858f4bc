"""Embed (tengine, op id 65): per input value, row `clip(int(x), 0, input_dim - 1)` of the weight [input_dim, K]."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "Embed", since=1)
def embed(x: np.ndarray, weight: np.ndarray, bias: np.ndarray | None, *, num_output: int, input_dim: int,
          bias_term: int, weight_data_size: int) -> tuple[np.ndarray, ...]:
    # The weight tensor decides the sizes; num_output and input_dim repeat them (weight_data_size too).
    if weight.ndim != 2:
        raise ValueError(f"Embed: weight must be [input_dim, num_output], got {weight.shape}")
    rows, width = weight.shape
    # C's float-to-int conversion truncates toward zero; out-of-range words clamp to the first or last row.
    words = np.clip(np.trunc(x.reshape(-1).astype(np.float64)), 0, rows - 1).astype(np.int64)
    y = weight[words]
    if bias is not None:
        if bias.size != width:
            raise ValueError(f"Embed: bias needs {width} values, got {bias.shape}")
        y = y + bias.reshape(width).astype(weight.dtype, copy=False)
    return (y.astype(weight.dtype, copy=False),)
