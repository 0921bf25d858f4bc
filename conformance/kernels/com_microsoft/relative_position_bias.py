"""com.microsoft RelativePositionBias: T5's bucketed relative position bias (1, num_heads, query_length, key_length).

Key j seen from query i is at relative position r = j - i. Bidirectional: half the buckets are for r > 0 (offset
by num_buckets / 2) and n = |r|; unidirectional: n = max(-r, 0). With m = (buckets in use) / 2, n < m is its own
bucket, a larger n goes to m + trunc(log(n / m) / log(max_distance / m) * (buckets in use - m)) (in float, as
onnxruntime's logf), at most the last bucket in use. The output holds the bias of that bucket for each head. The
bias table is given as (num_buckets, num_heads) in column-major order: its flat data is (num_heads, num_buckets).
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel

OP = "RelativePositionBias"


def buckets(query_length: int, key_length: int, num_buckets: int, max_distance: int, bidirectional: bool
            ) -> np.ndarray:
    """(query_length, key_length) bucket index of each key seen from each query."""
    rel = np.arange(key_length)[None, :] - np.arange(query_length)[:, None]
    base = np.zeros_like(rel)
    span = num_buckets
    if bidirectional:
        span = num_buckets // 2
        base = np.where(rel > 0, span, 0)
        n = np.abs(rel)
    else:
        n = np.maximum(-rel, 0)
    exact = span // 2
    with np.errstate(divide="ignore"):
        ratio = np.log(n.astype(np.float32) / np.float32(exact)) / np.log(np.float32(max_distance) / np.float32(exact))
    large = exact + np.trunc(np.where(n >= exact, ratio, 0) * np.float32(span - exact)).astype(np.int64)
    large = np.minimum(large, span - 1)
    out: np.ndarray = base + np.where(n < exact, n, large)
    return out


@kernel("com.microsoft", OP, since=1)
def relative_position_bias(bias_table: np.ndarray, query_length: np.ndarray, key_length: np.ndarray, *,
                           is_bidirectional: int, max_distance: int) -> tuple[np.ndarray, ...]:
    if bias_table.ndim != 2:
        raise ValueError(f"{OP}: bias_table must be 2-D (num_buckets, num_heads), got {bias_table.shape}")
    num_buckets, heads = bias_table.shape
    q, k = int(query_length.reshape(-1)[0]), int(key_length.reshape(-1)[0])
    span = num_buckets // 2 if is_bidirectional else num_buckets
    if span < 2 or max_distance <= span // 2:
        raise ValueError(f"{OP}: {num_buckets} buckets and max_distance {max_distance} leave no logarithmic buckets "
                         "(need at least 2 buckets in use and max_distance above half of them)")
    if q < 0 or k < 0:
        raise ValueError(f"{OP}: lengths must be non-negative, got {q} and {k}")
    table = bias_table.reshape(heads, num_buckets)  # column-major (num_buckets, num_heads)
    idx = buckets(q, k, num_buckets, max_distance, bool(is_bidirectional))
    return (table[:, idx][None].astype(bias_table.dtype),)
