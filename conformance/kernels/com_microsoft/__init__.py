"""Kernels of this domain. MODULES lists them explicitly (one op a file)."""

MODULES: tuple[str, ...] = (
    "dequantize_linear",
    "dynamic_quantize_lstm",
    "dynamic_quantize_mat_mul",
    "fast_gelu",
    "gather_block_quantized",
    "mat_mul_block_quantized_fp4_weight",
    "mat_mul_block_quantized_fp8_weight",
    "mat_mul_bnb4",
    "mat_mul_integer16",
    "mat_mul_integer_to_float",
    "mat_mul_n_bits",
    "mat_mul_n_bits_mlp",
    "mat_mul_n_bits_qlora",
    "mat_mul_n_bits_qkv",
    "q_attention",
    "q_embed_layer_normalization",
    "quantize_linear",
)
