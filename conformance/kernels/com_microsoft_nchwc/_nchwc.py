"""The blocked NCHWc layout the com.microsoft.nchwc kernels read and write (the domain's page describes it).

A blocked tensor has onnxruntime's 4-d shape [N, Cb, H, W] and stores its elements as [N, Cb / BLOCK, H, W, BLOCK].
`BLOCK` is the registry's block size, the `let: block` of every version of the domain (a test checks they agree).
"""

from __future__ import annotations

import numpy as np

BLOCK = 16


def blocks_of(op: str, x: np.ndarray, *, block: int = BLOCK) -> None:
    """Reject anything but a 4-d tensor whose channels fill whole blocks."""
    if x.ndim != 4:
        raise ValueError(f"{op}: X must be 4-d, got shape {x.shape}")
    if x.shape[1] % block:
        raise ValueError(f"{op}: X's {x.shape[1]} channels are not a multiple of the block size {block}")


def unblock(x: np.ndarray, *, block: int = BLOCK) -> np.ndarray:
    """The logical NCHW tensor [N, Cb, H, W] a blocked tensor stands for (its memory read as [N, Cb/b, H, W, b])."""
    n, cb, h, w = x.shape
    return x.reshape(n, cb // block, h, w, block).transpose(0, 1, 4, 2, 3).reshape(n, cb, h, w)


def to_blocks(y: np.ndarray, *, block: int = BLOCK) -> np.ndarray:
    """The blocked tensor of a logical NCHW tensor whose channels are a multiple of the block size."""
    n, cb, h, w = y.shape
    return np.ascontiguousarray(y.reshape(n, cb // block, block, h, w).transpose(0, 1, 3, 4, 2)).reshape(n, cb, h, w)


def pool_pads(spatial: tuple[int, ...], kernel_shape: list[int], strides: list[int], auto_pad: str,
              pads: list[int]) -> list[int]:
    """The explicit begin and end pads onnxruntime's PoolAttributes pools with: SAME pads by
    (ceil(S / stride) - 1) * stride + kernel - S, the kernel undilated (a negative padding is rejected)."""
    if auto_pad == "VALID":
        return [0, 0, 0, 0]
    if auto_pad == "NOTSET":
        return list(pads)
    need = [(-(-s // st) - 1) * st + k - s for s, k, st in zip(spatial, kernel_shape, strides, strict=True)]
    if min(need) < 0:
        raise ValueError(f"SAME padding of kernel {kernel_shape} with strides {strides} would be negative: {need}")
    head = [(n + (auto_pad == "SAME_LOWER")) // 2 for n in need]
    return head + [n - h for n, h in zip(need, head, strict=True)]
