"""ShuffleChannel (tengine, op id 55): output channel group*j + i is input channel (C/group)*i + j."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "ShuffleChannel", since=1)
def shuffle_channel(x: np.ndarray, *, group: int) -> tuple[np.ndarray, ...]:
    if x.ndim != 4:
        raise ValueError(f"ShuffleChannel: input must be NCHW (rank 4), got shape {x.shape}")
    n, c, h, w = x.shape
    if group < 1 or c % group:
        raise ValueError(f"ShuffleChannel: {c} channels do not divide into {group} groups")
    y = x.reshape(n, group, c // group, h, w).swapaxes(1, 2).reshape(n, c, h, w)
    return (np.ascontiguousarray(y),)
