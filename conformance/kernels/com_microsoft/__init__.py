"""Kernels of this domain. MODULES lists them explicitly (one op a file)."""

MODULES: tuple[str, ...] = (
    "dequantize_linear",
    "fast_gelu",
    "quantize_linear",
    "c_dist",
    "complex_mul",
    "complex_mul_conj",
    "grid_sample",
    "inverse",
    "irfft",
    "is_all_finite",
    "maxpool_with_mask",
    "rfft",
)
