"""com.microsoft MurmurHash3: MurmurHash3_x86_32 of each element, seeded, as uint32 or (positive=0) int32.

A numeric element is hashed as its little-endian bytes (4 for int32, uint32 and float, 8 for int64, uint64 and
double), a string as its UTF-8 bytes; the seed is taken modulo 2**32. positive=0 gives the same 32 bits read as
a signed integer.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel

_C1 = np.uint32(0xCC9E2D51)
_C2 = np.uint32(0x1B873593)


def _rotl(x: np.ndarray, r: int) -> np.ndarray:
    return np.asarray((x << np.uint32(r)) | (x >> np.uint32(32 - r)))


def _mix_block(h: np.ndarray, k: np.ndarray) -> np.ndarray:
    k = _rotl(k * _C1, 15) * _C2
    h = _rotl(h ^ k, 13)
    return h * np.uint32(5) + np.uint32(0xE6546B64)


def _finish(h: np.ndarray, length: np.ndarray) -> np.ndarray:
    h = h ^ length.astype(np.uint32)
    h = h ^ (h >> np.uint32(16))
    h = h * np.uint32(0x85EBCA6B)
    h = h ^ (h >> np.uint32(13))
    h = h * np.uint32(0xC2B2AE35)
    return np.asarray(h ^ (h >> np.uint32(16)))


def hash_words(words: np.ndarray, seed: int) -> np.ndarray:
    """The hash of each row of `words` (uint32, shape [n, w]): w whole blocks, no tail, length 4 * w bytes."""
    with np.errstate(over="ignore"):
        h = np.full(words.shape[0], seed, dtype=np.uint32)
        for j in range(words.shape[1]):
            h = _mix_block(h, words[:, j])
        return _finish(h, np.full(words.shape[0], 4 * words.shape[1], dtype=np.uint32))


def hash_bytes(data: bytes, seed: int) -> int:
    """The hash of one byte string (whole blocks, then the 0 to 3 tail bytes)."""
    n = len(data)
    blocks = np.frombuffer(data[: n - n % 4], dtype="<u4").astype(np.uint32).reshape(1, -1)
    tail = data[n - n % 4:]
    with np.errstate(over="ignore"):
        h = np.full(1, seed, dtype=np.uint32)
        for j in range(blocks.shape[1]):
            h = _mix_block(h, blocks[:, j])
        if tail:
            k = np.array([int.from_bytes(tail, "little")], dtype=np.uint32)
            h = h ^ (_rotl(k * _C1, 15) * _C2)
        return int(_finish(h, np.array([n], dtype=np.uint32))[0])


@kernel("com.microsoft", "MurmurHash3", since=1)
def murmur_hash3(x: np.ndarray, *, positive: int, seed: int) -> tuple[np.ndarray, ...]:
    s = int(seed) % 2**32
    if x.dtype.kind in "OUS":
        flat = [hash_bytes(str(v).encode("utf-8"), s) for v in x.reshape(-1).tolist()]
        h = np.asarray(flat, dtype=np.uint32).reshape(x.shape)
    elif x.dtype in (np.int32, np.uint32, np.float32, np.int64, np.uint64, np.float64):
        raw = np.ascontiguousarray(x.reshape(-1)).astype(x.dtype.newbyteorder("<"))
        words = raw.view("<u4").astype(np.uint32).reshape(raw.size, x.dtype.itemsize // 4)
        h = hash_words(words, s).reshape(x.shape)
    else:
        raise ValueError(f"MurmurHash3: X of type {x.dtype} is not hashed")
    return (h if positive == 1 else h.view(np.int32),)
