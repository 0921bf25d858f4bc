"""com.microsoft EmbedLayerNormalization: BERT's embedding layer. Each token's word embedding (row input_ids), position
embedding (row position_ids, else its index in the sequence) and segment embedding (row segment_ids, when given) are
added (embedding_sum) and layer-normalized over the hidden axis with gamma and beta (output). mask_index counts,
per batch row, the mask entries equal to 1 (zeros without a mask), as onnxruntime computes it."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel

OP = "EmbedLayerNormalization"


def rows_of(name: str, ids: np.ndarray, table: np.ndarray) -> np.ndarray:
    """The rows of `table` that `ids` name, after checking each names one."""
    if table.ndim != 2:
        raise ValueError(f"{OP}: {name} must be 2-D, got {table.shape}")
    if ids.size and (ids.min() < 0 or ids.max() >= table.shape[0]):
        raise ValueError(f"{OP}: ids into {name} must lie in [0, {table.shape[0]})")
    return table[ids.astype(np.int64)]


@kernel("com.microsoft", "EmbedLayerNormalization", since=1)
def embed_layer_normalization(input_ids: np.ndarray, segment_ids: np.ndarray | None, word_embedding: np.ndarray,
                              position_embedding: np.ndarray, segment_embedding: np.ndarray | None,
                              gamma: np.ndarray, beta: np.ndarray, mask: np.ndarray | None,
                              position_ids: np.ndarray | None, *, epsilon: float,
                              mask_index_type: int) -> tuple[np.ndarray, ...]:
    del mask_index_type  # a shape-inference switch only: mask_index is computed alike
    if input_ids.ndim != 2:
        raise ValueError(f"{OP}: input_ids must be 2-D, got {input_ids.shape}")
    batch, seq = input_ids.shape
    hidden = word_embedding.shape[-1]
    for name, arr in (("position_embedding", position_embedding), ("segment_embedding", segment_embedding)):
        if arr is not None and (arr.ndim != 2 or arr.shape[1] != hidden):
            raise ValueError(f"{OP}: {name} must be (rows, {hidden}), got {arr.shape}")
    for name, arr in (("gamma", gamma), ("beta", beta)):
        if arr.shape != (hidden,):
            raise ValueError(f"{OP}: {name} must have shape ({hidden},), got {arr.shape}")
    if (segment_ids is None) != (segment_embedding is None):
        raise ValueError(f"{OP}: segment_ids and segment_embedding come together")
    for name, arr in (("segment_ids", segment_ids), ("mask", mask)):
        if arr is not None and arr.shape != (batch, seq):
            raise ValueError(f"{OP}: {name} must have the shape of input_ids {input_ids.shape}, got {arr.shape}")
    if position_ids is None:
        positions = np.broadcast_to(np.arange(seq), (batch, seq))
    elif position_ids.ndim == 2 and position_ids.shape[0] in (1, batch) and position_ids.shape[1] == seq:
        positions = np.broadcast_to(position_ids, (batch, seq))
    else:
        raise ValueError(f"{OP}: position_ids must be (1 or {batch}, {seq}), got {position_ids.shape}")
    wt = np.float32
    total = rows_of("word_embedding", input_ids, word_embedding).astype(wt) + \
        rows_of("position_embedding", positions, position_embedding).astype(wt)
    if segment_ids is not None and segment_embedding is not None:
        total = total + rows_of("segment_embedding", segment_ids, segment_embedding).astype(wt)
    mean = np.mean(total, axis=-1, keepdims=True, dtype=wt)
    deviation = total - mean
    variance = np.mean(deviation * deviation, axis=-1, keepdims=True, dtype=wt)
    y = deviation / np.sqrt(variance + wt(epsilon)) * gamma.astype(wt) + beta.astype(wt)
    counts = np.zeros(batch, np.int32) if mask is None else np.count_nonzero(mask == 1, axis=1).astype(np.int32)
    dtype = word_embedding.dtype
    return (y.astype(dtype), counts, total.astype(dtype))
