"""com.microsoft HyperConnectionPostMix: Y[..., k, h] = sum_c stream_mix[..., c, k] * streams[..., c, h]
+ post_mix[..., k, h] * block_output[..., h]. stream_mix absent is the identity; post_mix is (..., C), (..., C, 1)
or (..., C, H), also for flattened streams (onnxruntime takes no (..., C * H) here), and broadcasts along H
(conformance/kernels/com_microsoft/_hyper_connection.py for the layouts). The output keeps the streams' layout.
Computed in double and rounded once to the streams' type."""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft._hyper_connection import branch_gates, grouped
from conformance.kernels.registry import kernel


@kernel("com.microsoft", "HyperConnectionPostMix", since=1)
def hyper_connection_post_mix(streams: np.ndarray, block_output: np.ndarray, post_mix: np.ndarray,
                              stream_mix: np.ndarray | None, *, num_branches: int) -> tuple[np.ndarray, ...]:
    op = "HyperConnectionPostMix"
    groups = grouped(op, streams, num_branches)
    lead, c, h = groups.shape[:-2], groups.shape[-2], groups.shape[-1]
    if block_output.shape != (*lead, h):
        raise ValueError(f"{op}: block_output {block_output.shape} must be {(*lead, h)}")
    gates = branch_gates(op, "post_mix", post_mix, groups, flattened=False)  # onnxruntime: no (..., C * H)
    if stream_mix is None:
        mixed = groups
    else:
        if stream_mix.shape != (*lead, c, c):
            raise ValueError(f"{op}: stream_mix {stream_mix.shape} must be {(*lead, c, c)}")
        mixed = np.swapaxes(stream_mix.astype(np.float64), -1, -2) @ groups
    out = mixed + gates * block_output.astype(np.float64)[..., None, :]
    return (out.reshape(streams.shape).astype(streams.dtype),)
