"""What the hyper-connection mixes share: streams grouped (..., C, H) or flattened (..., C * H) with
num_branches = C, and per-branch gates (..., C), (..., C, 1), (..., C, H) or, flattened, (..., C * H)."""

from __future__ import annotations

import numpy as np


def grouped(op: str, streams: np.ndarray, num_branches: int) -> np.ndarray:
    """streams as (..., C, H) in double."""
    if num_branches > 0:
        if streams.shape[-1] % num_branches:
            raise ValueError(f"{op}: flattened streams' last dim {streams.shape[-1]} is not a multiple of "
                             f"num_branches={num_branches}")
        return streams.astype(np.float64).reshape(*streams.shape[:-1], num_branches, -1)
    if streams.ndim < 2:
        raise ValueError(f"{op}: grouped streams must be (..., C, H), got shape {streams.shape}")
    return streams.astype(np.float64)


def branch_gates(op: str, name: str, gates: np.ndarray, groups: np.ndarray, flattened: bool) -> np.ndarray:
    """A gate tensor as (..., C, H) or (..., C, 1), broadcastable against the grouped streams."""
    lead, c, h = list(groups.shape[:-2]), groups.shape[-2], groups.shape[-1]
    shape = list(gates.shape)
    g = gates.astype(np.float64)
    if shape == [*lead, c]:
        return g[..., None]
    if shape in ([*lead, c, 1], [*lead, c, h]):
        return g
    if flattened and shape == [*lead, c * h]:
        return g.reshape(*lead, c, h)
    raise ValueError(f"{op}: {name} {tuple(shape)} must be (..., C), (..., C, 1), (..., C, H)"
                     f"{' or (..., C * H)' if flattened else ''} for streams grouped as {groups.shape}")
