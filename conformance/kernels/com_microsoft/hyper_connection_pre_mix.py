"""com.microsoft HyperConnectionPreMix: Y[..., h] = reduction_scale * sum_c streams[..., c, h] * pre_mix[..., c, h],
the gates broadcast along H when given per branch (conformance/kernels/com_microsoft/_hyper_connection.py for the
layouts). Computed in double and rounded once to the streams' type."""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft._hyper_connection import branch_gates, grouped
from conformance.kernels.registry import kernel


@kernel("com.microsoft", "HyperConnectionPreMix", since=1)
def hyper_connection_pre_mix(streams: np.ndarray, pre_mix: np.ndarray, *, num_branches: int,
                             reduction_scale: float) -> tuple[np.ndarray, ...]:
    groups = grouped("HyperConnectionPreMix", streams, num_branches)
    gates = branch_gates("HyperConnectionPreMix", "pre_mix", pre_mix, groups, num_branches > 0)
    out = reduction_scale * (groups * gates).sum(axis=-2)
    return (out.astype(streams.dtype),)
