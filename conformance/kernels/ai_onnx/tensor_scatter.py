"""TensorScatter (opset 24, a KV-cache update): a copy of past_cache where, for every batch entry b, the
update's `sequence_length` positions along `axis` are written from write_indices[b] on (0 when omitted),
modulo max_sequence_length in `circular` mode."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._indexing import checked_axis
from conformance.kernels.registry import kernel

OP = "TensorScatter"


@kernel("ai.onnx", "TensorScatter", since=24)
def tensor_scatter(past_cache: np.ndarray, update: np.ndarray, write_indices: np.ndarray | None, *, axis: int,
                   mode: str) -> tuple[np.ndarray, ...]:
    shape, ushape = past_cache.shape, update.shape
    if len(ushape) != len(shape):
        raise ValueError(f"{OP}: past_cache {shape} and update {ushape} differ in rank")
    ax = checked_axis(OP, axis, len(shape))
    if ax == 0:
        raise ValueError(f"{OP}: axis {axis} is the batch axis")
    if any(ushape[d] != shape[d] for d in range(len(shape)) if d != ax) or ushape[ax] > shape[ax]:
        raise ValueError(f"{OP}: update {ushape} must be past_cache {shape} with at most {shape[ax]} on axis {ax}")
    batch, length, steps = shape[0], shape[ax], ushape[ax]
    start = np.zeros(batch, np.int64) if write_indices is None else np.asarray(write_indices, np.int64)
    if start.shape != (batch,):
        raise ValueError(f"{OP}: write_indices {start.shape} must have shape ({batch},)")
    if (start < 0).any():
        raise ValueError(f"{OP}: write_indices {start.tolist()} must not be negative")
    rows = start[:, None] + np.arange(steps, dtype=np.int64)[None, :]  # (batch, sequence_length)
    if mode == "circular":
        rows = rows % length if length else rows
    elif mode != "linear":
        raise ValueError(f"{OP}: mode must be linear or circular, got {mode!r}")
    if (rows >= length).any():
        raise ValueError(f"{OP}: linear writes from {start.tolist()} of {steps} steps pass max_sequence_length "
                         f"{length}")
    out = np.array(past_cache, copy=True)
    # the batch and sequence axes first: out_view[b, rows[b, j], ...] = update_view[b, j, ...]
    np.moveaxis(out, ax, 1)[np.arange(batch)[:, None], rows] = np.moveaxis(update, ax, 1)
    return (out,)
