"""com.microsoft.nchwc ReorderInput: NCHW (or NHWC) to the blocked layout, channels zero-padded to whole blocks."""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft_nchwc._nchwc import BLOCK, to_blocks
from conformance.kernels.registry import kernel


@kernel("com.microsoft.nchwc", "ReorderInput", since=1)
def reorder_input(x: np.ndarray, *, channels_last: int) -> tuple[np.ndarray, ...]:
    if x.ndim != 4:
        raise ValueError(f"ReorderInput: X must be 4-d, got shape {x.shape}")
    nchw = np.moveaxis(x, 3, 1) if channels_last else x
    c = nchw.shape[1]
    if c % 4:
        raise ValueError(f"ReorderInput: the channel count {c} must be a multiple of 4")
    cb = -(-c // BLOCK) * BLOCK
    padded = np.zeros((nchw.shape[0], cb, *nchw.shape[2:]), dtype=x.dtype)
    padded[:, :c] = nchw
    return (to_blocks(padded),)
