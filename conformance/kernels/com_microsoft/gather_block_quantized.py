"""com.microsoft GatherBlockQuantized: Gather over a block-quantized table, dequantized on the way out.

The table's logical values: int4/uint4 and the float8/float4 types as they are; uint8 data with `bits` 2 or 4
holds 8 / bits values a byte along its last axis, low bits first (so the last axis grows by that factor). Along
`quantize_axis` every `block_size` values share one scale (block_size 0, allowed for the float types only,
makes the whole axis one block); on the other axes scales match the data (or are 1 for the float types,
broadcast). Integer values are dequantized as float32(value - zero_point) * scale, the zero points laid out like
the scales (uint8 ones packed like the data along the last axis); absent, they are 0 for int4/uint4 and
2^(bits - 1) for uint8. Float values are float32(value) * scale. Then the slices along `gather_axis` that
`indices` name are taken; an index outside [-s, s-1] gives a slice of zeros. Y has the scales' type.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel

OP = "GatherBlockQuantized"
FLOAT_TABLES = frozenset({"float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz", "float4_e2m1fn"})


def unpacked_last_axis(x: np.ndarray, bits: int) -> np.ndarray:
    """uint8 values of `bits` bits packed low bits first along the last axis, unpacked (as int64)."""
    per = 8 // bits
    shifts = np.arange(per, dtype=np.uint8) * np.uint8(bits)
    values = (x[..., None] >> shifts) & np.uint8((1 << bits) - 1)
    return np.asarray(values.reshape(*x.shape[:-1], x.shape[-1] * per), np.int64)


def _axis(name: str, axis: int, rank: int) -> int:
    if not -rank <= axis < rank:
        raise ValueError(f"{OP}: {name} {axis} is out of range for a table of rank {rank}")
    return axis % rank


def dequantized_table(data: np.ndarray, scales: np.ndarray, zero_points: np.ndarray | None, *, bits: int,
                      block_size: int, quantize_axis: int) -> np.ndarray:
    """The whole table dequantized, in float32."""
    is_float = data.dtype.name in FLOAT_TABLES
    rank = data.ndim
    qa = _axis("quantize_axis", quantize_axis, rank)
    if is_float:
        if zero_points is not None:
            raise ValueError(f"{OP}: zero_points must not be given with a {data.dtype.name} table")
        values = data.astype(np.float32)
    elif data.dtype == np.uint8:
        if bits not in (2, 4, 8):
            raise ValueError(f"{OP}: bits must be 2, 4 or 8 with uint8 data, got {bits}")
        if qa != rank - 1:
            raise ValueError(f"{OP}: with uint8 data quantize_axis must be the last axis, got {quantize_axis}")
        values = unpacked_last_axis(data, bits) if bits < 8 else data.astype(np.int64)
    elif data.dtype.name in ("int4", "uint4"):
        if bits != 4:
            raise ValueError(f"{OP}: bits must be 4 with {data.dtype.name} data, got {bits}")
        values = data.astype(np.int64)
    else:
        raise ValueError(f"{OP}: unsupported data type {data.dtype}")
    if block_size == 0 and not is_float:
        raise ValueError(f"{OP}: block_size 0 is for float8/float4 tables only")
    block = max(values.shape[qa], 1) if block_size == 0 else block_size
    if scales.ndim != rank:
        raise ValueError(f"{OP}: scales must have the data's rank {rank}, got shape {scales.shape}")
    for i in range(rank):
        want = -(-values.shape[i] // block) if i == qa else values.shape[i]
        if scales.shape[i] != want and not (is_float and i != qa and scales.shape[i] == 1):
            raise ValueError(f"{OP}: scales {scales.shape} do not fit the table {values.shape} (axis {i})")
    scale = np.repeat(scales.astype(np.float32), block, axis=qa).take(np.arange(values.shape[qa]), axis=qa)
    if is_float:
        return np.asarray(values * scale, np.float32)
    if zero_points is None:
        zp: np.ndarray | int = (1 << (bits - 1)) if data.dtype == np.uint8 else 0
    else:
        if zero_points.dtype != data.dtype:
            raise ValueError(f"{OP}: zero_points {zero_points.dtype} must have the data's type {data.dtype}")
        zps = unpacked_last_axis(zero_points, bits) if data.dtype == np.uint8 and bits < 8 else \
            zero_points.astype(np.int64)
        packed_shape = list(scales.shape)
        if data.dtype == np.uint8 and bits < 8:
            packed_shape[-1] = -(-scales.shape[-1] * bits // 8)
        if list(zero_points.shape) != packed_shape:
            raise ValueError(f"{OP}: zero_points must have shape {packed_shape}, got {zero_points.shape}")
        zps = zps[..., :scales.shape[-1]]
        zp = np.repeat(zps, block, axis=qa).take(np.arange(values.shape[qa]), axis=qa)
    return np.asarray((values - zp).astype(np.float32) * scale, np.float32)


@kernel("com.microsoft", "GatherBlockQuantized", since=1, exact_types=True)
def gather_block_quantized(data: np.ndarray, indices: np.ndarray, scales: np.ndarray,
                           zero_points: np.ndarray | None, *, bits: int, block_size: int, gather_axis: int,
                           quantize_axis: int) -> tuple[np.ndarray, ...]:
    table = dequantized_table(data, scales, zero_points, bits=bits, block_size=block_size,
                              quantize_axis=quantize_axis)
    ga = _axis("gather_axis", gather_axis, data.ndim)
    if data.dtype == np.uint8 and ga != 0:
        raise ValueError(f"{OP}: with uint8 data gather_axis must be 0, got {gather_axis}")
    size = table.shape[ga]
    idx = indices.astype(np.int64)
    inside = (idx >= -size) & (idx < size)
    picked = np.take(table, np.where(inside, idx % max(size, 1), 0), axis=ga)
    mask = inside.reshape((1,) * ga + inside.shape + (1,) * (table.ndim - ga - 1))
    y = np.where(mask, picked, np.float32(0))
    return (y.astype(scales.dtype),)
