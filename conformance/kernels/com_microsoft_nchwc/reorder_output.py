"""com.microsoft.nchwc ReorderOutput: the blocked layout back to NCHW (or NHWC), keeping `channels` channels."""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft_nchwc._nchwc import BLOCK, blocks_of, unblock
from conformance.kernels.registry import kernel


@kernel("com.microsoft.nchwc", "ReorderOutput", since=1)
def reorder_output(x: np.ndarray, *, channels: int, channels_last: int) -> tuple[np.ndarray, ...]:
    blocks_of("ReorderOutput", x)
    cb = x.shape[1]
    if channels < 1 or channels > cb or cb - channels >= BLOCK:
        raise ValueError(f"ReorderOutput: channels={channels} does not round up to X's {cb} channels")
    y = unblock(x)[:, :channels]
    if channels_last:
        y = np.moveaxis(y, 1, 3)
    return (np.ascontiguousarray(y),)
