"""Pad (tengine, op id 40): pads the C, H and W axes of an NCHW tensor (constant, edge or reflect)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel

_MODES = {0: "constant", 1: "edge", 2: "reflect"}


@kernel("tengine", "Pad", since=1)
def pad(x: np.ndarray, *, pad_n_0: int, pad_n_1: int, pad_c_0: int, pad_c_1: int, pad_h_0: int, pad_h_1: int,
        pad_w_0: int, pad_w_1: int, mode: int, value: float) -> tuple[np.ndarray, ...]:
    if x.ndim != 4:
        raise ValueError(f"Pad: input must be NCHW (rank 4), got shape {x.shape}")
    pads = (pad_n_0, pad_n_1, pad_c_0, pad_c_1, pad_h_0, pad_h_1, pad_w_0, pad_w_1)
    if min(pads) < 0:
        raise ValueError(f"Pad: every pad must be set (>= 0), got {list(pads)}")
    if pad_n_0 or pad_n_1:
        raise ValueError("Pad: Tengine does not pad the batch axis (pad_n_0 and pad_n_1 must be 0)")
    if mode not in _MODES:
        raise ValueError(f"Pad: mode must be 0, 1 or 2, got {mode}")
    spatial = ((0, 0), (0, 0), (pad_h_0, pad_h_1), (pad_w_0, pad_w_1))
    channels = ((0, 0), (pad_c_0, pad_c_1), (0, 0), (0, 0))
    if mode == 0:
        y = np.pad(x, spatial, mode="constant", constant_values=value)
        y = np.pad(y, channels, mode="constant", constant_values=value)
    else:
        # New channels repeat the nearest real channel in both non-constant modes, as Tengine copies them.
        y = np.pad(np.pad(x, spatial, mode=_MODES[mode]), channels, mode="edge")  # type: ignore[call-overload]
    return (y,)
