"""com.microsoft MatMulNBits: Y = A @ dequantize(B)^T + bias, B an [N, K] weight quantized block-wise along K.

B is [N, k_blocks, blob_size] bytes, each block of `block_size` values of `bits` bits packed low bits first
(for 4 bits: element 2i in the low nibble of byte i, 2i+1 in the high one). The weight is
(q - zero_point) * scale per block; zero points are packed the same way along the blocks of a row (uint8,
[N, ceil(k_blocks * bits / 8)]), or given unpacked in A's type ([N, k_blocks]), or 2^(bits - 1) when absent.
g_idx maps each k to the block whose scale and zero point it takes. The product is computed in float32 (float16
and bfloat16 arrive widened and Y is rounded back once); accuracy_level only permits an implementation a coarser
A (see the op's readings) and does not change this result.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel

OP = "MatMulNBits"


def unpack_bits(packed: np.ndarray, bits: int, count: int) -> np.ndarray:
    """The first `count` values of `bits` bits along the last axis of a uint8 array, low bits first."""
    per = 8 // bits
    shifts = (np.arange(per, dtype=np.uint8) * bits).astype(np.uint8)
    values = (packed[..., None] >> shifts) & np.uint8((1 << bits) - 1)
    return np.asarray(values.reshape(*packed.shape[:-1], packed.shape[-1] * per)[..., :count])


def dequantized_weight(op: str, b: np.ndarray, scales: np.ndarray, zero_points: np.ndarray | None,
                       g_idx: np.ndarray | None, k: int, n: int, bits: int, block_size: int) -> np.ndarray:
    """The [N, K] float32 weight of a MatMulNBits-packed B."""
    if bits not in (2, 4, 8):
        raise ValueError(f"{op}: bits must be 2, 4 or 8, got {bits}")
    k_blocks = -(-k // block_size)
    blob = block_size * bits // 8
    if b.shape != (n, k_blocks, blob):
        raise ValueError(f"{op}: B must have shape {(n, k_blocks, blob)} for N={n}, K={k}, block_size={block_size}, "
                         f"bits={bits}, got {b.shape}")
    if scales.size != n * k_blocks:
        raise ValueError(f"{op}: scales must hold N * k_blocks = {n * k_blocks} values, got shape {scales.shape}")
    q = unpack_bits(b, bits, block_size).reshape(n, k_blocks * block_size)[:, :k].astype(np.float32)
    block = np.arange(k) // block_size
    if g_idx is not None:
        if g_idx.shape != (k,) or (g_idx.size and (g_idx.min() < 0 or g_idx.max() >= k_blocks)):
            raise ValueError(f"{op}: g_idx must be [K] block indices in [0, {k_blocks}), got {g_idx.shape}")
        block = g_idx.astype(np.int64)
    scale = scales.astype(np.float32).reshape(n, k_blocks)
    if zero_points is None:
        zp = np.full((n, k_blocks), float(1 << (bits - 1)), np.float32)
    elif zero_points.dtype == np.uint8:
        packed_len = -(-k_blocks * bits // 8)
        if zero_points.size != n * packed_len:
            raise ValueError(f"{op}: packed uint8 zero_points must hold N * ceil(k_blocks * bits / 8) = "
                             f"{n * packed_len} bytes, got shape {zero_points.shape}")
        zp = unpack_bits(zero_points.reshape(n, packed_len), bits, k_blocks).astype(np.float32)
    else:
        if zero_points.size != n * k_blocks:
            raise ValueError(f"{op}: float zero_points must hold N * k_blocks = {n * k_blocks} values, got shape "
                             f"{zero_points.shape}")
        zp = zero_points.astype(np.float32).reshape(n, k_blocks)
    return np.asarray((q - zp[:, block]) * scale[:, block], np.float32)


@kernel("com.microsoft", "MatMulNBits", since=1)
def mat_mul_n_bits(a: np.ndarray, b: np.ndarray, scales: np.ndarray, zero_points: np.ndarray | None,
                   g_idx: np.ndarray | None, bias: np.ndarray | None, *, K: int, N: int, accuracy_level: int,
                   bits: int, block_size: int, weight_prepacked: int) -> tuple[np.ndarray, ...]:
    if weight_prepacked != 0:
        raise ValueError(f"{OP}: weight_prepacked={weight_prepacked} names a CUDA layout of B the reference does not "
                         "unpack")
    if a.ndim < 1 or a.shape[-1] != K:
        raise ValueError(f"{OP}: A's last dim must be K={K}, got shape {a.shape}")
    if bias is not None and bias.shape != (N,):
        raise ValueError(f"{OP}: bias must have shape [N] = [{N}], got {bias.shape}")
    out_shape = (*a.shape[:-1], N)
    if b.size == 0:  # an omitted projection: zeros, or the broadcast bias
        y = np.zeros(out_shape, np.float32) + (0 if bias is None else bias.astype(np.float32))
        return (y.astype(a.dtype),)
    w = dequantized_weight(OP, b, scales, zero_points, g_idx, K, N, bits, block_size)
    y = np.matmul(a.astype(np.float32), w.T)
    if bias is not None:
        y = y + bias.astype(np.float32)
    return (np.asarray(y, np.float32).astype(a.dtype),)
