"""com.microsoft ComplexMulConj: A * conj(B) elementwise, complex numbers stored as (real, imaginary) pairs on the last
axis, the other axes broadcasting (onnxruntime's CUDA kernel)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft.complex_mul import complex_product
from conformance.kernels.registry import kernel


@kernel("com.microsoft", "ComplexMulConj", since=1)
def complex_mul_conj(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, ...]:
    return complex_product("ComplexMulConj", a, b, conj=True)
