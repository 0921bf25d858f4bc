"""Kernels of this domain. MODULES lists them explicitly (one op a file)."""

MODULES: tuple[str, ...] = (
    "dequantize_linear",
    "fast_gelu",
    "quantize_linear",
    "mul_integer",
    "q_gemm",
    "q_linear_add",
    "q_linear_average_pool",
    "q_linear_concat",
    "q_linear_conv",
    "q_linear_global_average_pool",
    "q_linear_leaky_relu",
    "q_linear_mul",
    "q_linear_reduce_mean",
    "q_linear_sigmoid",
    "q_linear_softmax",
    "q_linear_where",
    "reduce_sum_integer",
)
