"""com.microsoft QEmbedLayerNormalization: BERT's embedding layer on 8-bit tables, as onnxruntime's CPU kernel
computes it.

Every table (word, position, segment embeddings, gamma, beta) is dequantized as (q - zero_point) * scale in float32,
one scale and zero point a table. Each token adds its word row (its input id), its position row (its index in the
sequence) and its segment row (its segment id); the sum is layer-normalized over the hidden axis, (x - mean) /
sqrt(variance + epsilon) * gamma + beta. mask_index_out counts each batch row's mask entries equal to 1 (zeros
without a mask).
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel

OP = "QEmbedLayerNormalization"


def _dequantized(name: str, q: np.ndarray, scale: np.ndarray, zero_point: np.ndarray) -> np.ndarray:
    if scale.size != 1 or zero_point.size != 1 or scale.ndim > 1 or zero_point.ndim > 1:
        raise ValueError(f"{OP}: {name}'s scale and zero point must be scalars or 1-element vectors, got "
                         f"{list(scale.shape)} and {list(zero_point.shape)}")
    return np.asarray((q.astype(np.int32) - np.int32(zero_point.reshape(-1)[0])).astype(np.float32)
                      * scale.astype(np.float32).reshape(-1)[0], np.float32)


def _rows(name: str, table: np.ndarray, ids: np.ndarray) -> np.ndarray:
    if ids.size and (ids.min() < 0 or ids.max() >= table.shape[0]):
        raise ValueError(f"{OP}: {name} ids must lie in [0, {table.shape[0]}), got {ids.min()}..{ids.max()}")
    return np.asarray(table[ids.astype(np.int64)])


@kernel("com.microsoft", "QEmbedLayerNormalization", since=1)
def q_embed_layer_normalization(
        input_ids: np.ndarray, segment_ids: np.ndarray | None, word_embedding_quant: np.ndarray,
        position_embedding_quant: np.ndarray, segment_embedding: np.ndarray | None, gamma_quant: np.ndarray,
        beta_quant: np.ndarray, mask: np.ndarray | None, word_embedding_scale: np.ndarray,
        position_embedding_scale: np.ndarray, segment_embedding_scale: np.ndarray | None, gamma_scale: np.ndarray,
        beta_scale: np.ndarray, word_embedding_zero_point: np.ndarray, position_embedding_zero_point: np.ndarray,
        segment_embedding_zero_point: np.ndarray | None, gamma_zero_point: np.ndarray,
        beta_zero_point: np.ndarray, *, epsilon: float) -> tuple[np.ndarray, ...]:
    if input_ids.ndim != 2:
        raise ValueError(f"{OP}: input_ids must be [batch, sequence], got {list(input_ids.shape)}")
    batch, steps = input_ids.shape
    hidden = word_embedding_quant.shape[-1]
    tables = {"word_embedding_quant": word_embedding_quant, "position_embedding_quant": position_embedding_quant,
              "segment_embedding": segment_embedding}
    for name, table in tables.items():
        if table is not None and (table.ndim != 2 or table.shape[1] != hidden):
            raise ValueError(f"{OP}: {name} must be [rows, {hidden}], got {list(table.shape)}")
    if gamma_quant.shape != (hidden,) or beta_quant.shape != (hidden,):
        raise ValueError(f"{OP}: gamma and beta must be [{hidden}], got {list(gamma_quant.shape)} and "
                         f"{list(beta_quant.shape)}")
    segment = (segment_ids, segment_embedding, segment_embedding_scale, segment_embedding_zero_point)
    if any(x is None for x in segment) and any(x is not None for x in segment):
        raise ValueError(f"{OP}: segment_ids, segment_embedding and its scale and zero point come together")
    for name, given in (("segment_ids", segment_ids), ("mask", mask)):
        if given is not None and given.shape != input_ids.shape:
            raise ValueError(f"{OP}: {name} must have input_ids' shape {list(input_ids.shape)}, got "
                             f"{list(given.shape)}")
    if steps > position_embedding_quant.shape[0]:
        raise ValueError(f"{OP}: {steps} positions but position_embedding_quant has "
                         f"{position_embedding_quant.shape[0]} rows")
    word = _dequantized("word_embedding_quant", word_embedding_quant, word_embedding_scale, word_embedding_zero_point)
    position = _dequantized("position_embedding_quant", position_embedding_quant, position_embedding_scale,
                            position_embedding_zero_point)
    x = _rows("input_ids", word, input_ids) + position[None, :steps]
    if segment_ids is not None and segment_embedding is not None and segment_embedding_scale is not None \
            and segment_embedding_zero_point is not None:
        table = _dequantized("segment_embedding", segment_embedding, segment_embedding_scale,
                             segment_embedding_zero_point)
        x = x + _rows("segment_ids", table, segment_ids)
    centred = x - x.mean(axis=-1, keepdims=True, dtype=np.float32)
    deviation = np.sqrt((centred * centred).mean(axis=-1, keepdims=True, dtype=np.float32) + np.float32(epsilon))
    gamma = _dequantized("gamma_quant", gamma_quant, gamma_scale, gamma_zero_point)
    beta = _dequantized("beta_quant", beta_quant, beta_scale, beta_zero_point)
    y = np.asarray(centred / deviation * gamma + beta, np.float32)
    counts = np.zeros(batch, np.int32) if mask is None else np.count_nonzero(mask == 1, axis=1).astype(np.int32)
    return y, counts
