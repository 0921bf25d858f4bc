"""Kernels of this domain. MODULES lists them explicitly (one op a file)."""

MODULES: tuple[str, ...] = (
    "dequantize_linear",
    "fast_gelu",
    "quantize_linear",
    "bias_add",
    "bias_gelu",
    "bias_softmax",
    "bias_split_gelu",
    "fused_conv",
    "fused_gemm",
    "fused_mat_mul",
    "gelu",
    "gemm_fast_gelu",
    "nhwc_conv",
    "nhwc_fused_conv",
    "quick_gelu",
    "transpose_mat_mul",
)
