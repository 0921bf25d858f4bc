"""Kernels of this domain. MODULES lists them explicitly (one op a file)."""

MODULES: tuple[str, ...] = (
    "dequantize_linear",
    "fast_gelu",
    "quantize_linear",
    "moe",
    "linear_attention",
    "causal_conv_with_state",
    "qmoe",
    "linear_attention_gate",
    "hyper_connection_pre_mix",
    "hyper_connection_post_mix",
    "engram_gate",
    "ngram_hash_mapping",
    "varlen_ngram_hash_mapping",
    "moe_group_router",
    "varlen_causal_conv_with_state",
    "gated_delta_net",
    "sparse_attention",
    "router_gate_up_proj",
    "hyper_connection_low_rank_mix",
)
