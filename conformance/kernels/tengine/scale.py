"""Scale (tengine, op id 26): x * gamma[c] (+ beta[c]) over the channels of NCHW data."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "Scale", since=1)
def scale(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray | None, *, axis: int, num_axes: int,
          bias_term: int) -> tuple[np.ndarray, ...]:
    # axis, num_axes and bias_term describe the Caffe layer; Tengine always scales the channels
    if x.ndim != 4:
        raise ValueError(f"Scale: input must be NCHW (rank 4), got shape {x.shape}")
    channels = x.shape[1]
    if gamma.size != channels or (beta is not None and beta.size != channels):
        raise ValueError(f"Scale: gamma and beta need {channels} values each")
    work = np.promote_types(x.dtype, np.float32)
    y = x.astype(work, copy=False) * gamma.reshape(1, channels, 1, 1).astype(work, copy=False)
    if beta is not None:
        y = y + beta.reshape(1, channels, 1, 1).astype(work, copy=False)
    return (y.astype(x.dtype, copy=False),)
