"""com.microsoft GatherPacked: rows of a GGML-packed embedding table gathered by index and dequantized.

`packed_type` is a GGML type id (onnxruntime's packed-weight format contract uses GGML's block layouts, all
little-endian); a row of `data` holds K values as K / block_size blocks:
- 0 F32, 1 F16, 30 BF16: the values themselves (block size 1);
- 8 Q8_0 (34 bytes per 32 values): a float16 scale d, then 32 int8 q; value = d * q;
- 2 Q4_0 (18 bytes per 32): d, then 16 bytes; byte j holds q_j in its low nibble and q_{j+16} in its high one;
  value = d * (q - 8);
- 6 Q5_0 (22 bytes per 32): d, a uint32 of fifth bits (bit j for value j), then the 16 nibble bytes as Q4_0;
  value = d * (q + 16 * bit - 16);
- 20 IQ4_NL (18 bytes per 32): d and nibbles as Q4_0, each nibble an index into GGML's fixed table of 16 levels;
  value = d * level.
The product is formed in float32 and rounded once to output_dtype (1 float, 10 float16, 16 bfloat16). An index
outside [0, vocab_size) (negative ones included) reads row 0. The other GGML types onnxruntime accepts (the
k-quants and the i-quants with lattice tables) are not computed by this kernel.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

from conformance.kernels.registry import kernel

IQ4_NL_LEVELS = np.array([-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113], dtype=np.float32)
# GGML type id -> (values per block, bytes per block)
LAYOUTS: dict[int, tuple[int, int]] = {0: (1, 4), 1: (1, 2), 30: (1, 2), 8: (32, 34), 2: (32, 18), 6: (32, 22),
                                       20: (32, 18)}
OUTPUT_TYPES = {1: np.dtype(np.float32), 10: np.dtype(np.float16), 16: np.dtype(ml_dtypes.bfloat16)}


def row_bytes(packed_type: int, k: int) -> int:
    """Bytes of one packed row of k values (ValueError for a type or k the layouts do not serve)."""
    if packed_type not in LAYOUTS:
        raise ValueError(f"GatherPacked: packed_type {packed_type} is not computed by this kernel")
    per_block, size = LAYOUTS[packed_type]
    if k <= 0 or k % per_block:
        raise ValueError(f"GatherPacked: K={k} must be a positive multiple of {per_block} for type {packed_type}")
    return k // per_block * size


def _nibbles(qs: np.ndarray) -> np.ndarray:
    """[..., 16] bytes -> [..., 32] nibbles: the low nibbles first, then the high ones."""
    return np.concatenate([qs & 0x0F, qs >> 4], axis=-1)


def dequantize(rows: np.ndarray, packed_type: int, k: int) -> np.ndarray:
    """[n, row_bytes] uint8 -> [n, k] float32."""
    n = rows.shape[0]
    if packed_type in (0, 1, 30):
        fmt = {0: "<f4", 1: "<f2", 30: "<u2"}[packed_type]
        raw = np.ascontiguousarray(rows).view(fmt)
        if packed_type == 30:
            return (raw.astype(np.uint32) << 16).view(np.float32).reshape(n, k)
        return raw.astype(np.float32).reshape(n, k)
    per_block, size = LAYOUTS[packed_type]
    blocks = rows.reshape(n, k // per_block, size)
    d = np.ascontiguousarray(blocks[..., :2]).view("<f2").astype(np.float32)  # [n, nb, 1]
    if packed_type == 8:
        q = blocks[..., 2:].view(np.int8).astype(np.float32)
    elif packed_type == 2:
        q = _nibbles(blocks[..., 2:]).astype(np.float32) - 8
    elif packed_type == 20:
        q = IQ4_NL_LEVELS[_nibbles(blocks[..., 2:])]
    else:  # 6: Q5_0
        high = np.ascontiguousarray(blocks[..., 2:6]).view("<u4").astype(np.uint32)  # [n, nb, 1]
        bits = (high >> np.arange(32, dtype=np.uint32)) & 1
        q = (_nibbles(blocks[..., 6:]).astype(np.int32) + 16 * bits.astype(np.int32) - 16).astype(np.float32)
    return np.asarray((d * q).reshape(n, k), dtype=np.float32)


@kernel("com.microsoft", "GatherPacked", since=1, exact_types=True)
def gather_packed(data: np.ndarray, indices: np.ndarray, *, K: int, output_dtype: int,
                  packed_type: int) -> tuple[np.ndarray, ...]:
    if data.ndim != 2 or data.dtype != np.uint8:
        raise ValueError(f"GatherPacked: data must be a 2-D uint8 blob, got {data.dtype} {data.shape}")
    if output_dtype not in OUTPUT_TYPES:
        raise ValueError(f"GatherPacked: output_dtype {output_dtype} must be one of {sorted(OUTPUT_TYPES)}")
    width = row_bytes(int(packed_type), int(K))
    if data.shape[1] != width:
        raise ValueError(f"GatherPacked: data rows hold {data.shape[1]} bytes, expected {width}")
    vocab = data.shape[0]
    idx = indices.astype(np.int64).reshape(-1)
    idx = np.where((idx >= 0) & (idx < vocab), idx, 0)
    if vocab == 0 and idx.size:
        raise ValueError("GatherPacked: an empty table has no row 0 to read")
    values = dequantize(data[idx], int(packed_type), int(K)) if idx.size else np.zeros((0, int(K)), np.float32)
    return (values.astype(OUTPUT_TYPES[output_dtype]).reshape((*indices.shape, int(K))),)
