"""Kernels of this domain. MODULES lists them explicitly (one op a file)."""

MODULES: tuple[str, ...] = (
    "attention",
    "dequantize_linear",
    "fast_gelu",
    "gated_relative_position_bias",
    "group_query_attention",
    "multi_head_attention",
    "quantize_linear",
    "relative_position_bias",
    "remove_padding",
    "restore_padding",
    "decoder_masked_multi_head_attention",
    "packed_attention",
    "packed_multi_head_attention",
    "decoder_attention",
    "decoder_masked_self_attention",
)
