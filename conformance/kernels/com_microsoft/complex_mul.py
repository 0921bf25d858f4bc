"""com.microsoft ComplexMul and ComplexMulConj: elementwise products of complex numbers stored as (real, imaginary)
pairs on the last axis, the other axes broadcasting (onnxruntime's CUDA kernels): A * B, and A * conj(B)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


def complex_product(op: str, a: np.ndarray, b: np.ndarray, conj: bool) -> tuple[np.ndarray, ...]:
    for name, t in (("A", a), ("B", b)):
        if t.ndim < 1 or t.shape[-1] != 2:
            raise ValueError(f"{op}: {name}'s last dim must be 2 (real, imaginary), got {t.shape}")
    wt = np.float64 if a.dtype == np.float64 else np.float32
    ct = np.complex128 if wt == np.float64 else np.complex64
    # (real, imaginary) pairs read as complex numbers: a contiguous last axis of 2 viewed as one complex value
    za = np.ascontiguousarray(a, dtype=wt).view(ct)[..., 0]
    zb = np.ascontiguousarray(b, dtype=wt).view(ct)[..., 0]
    z = np.multiply(za, np.conj(zb) if conj else zb)
    return (np.stack([z.real, z.imag], axis=-1).astype(a.dtype),)


@kernel("com.microsoft", "ComplexMul", since=1)
def complex_mul(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, ...]:
    return complex_product("ComplexMul", a, b, conj=False)
