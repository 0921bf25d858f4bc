"""Kernels of this domain. MODULES lists them explicitly (one op a file)."""

MODULES: tuple[str, ...] = (
    "dequantize_linear",
    "fast_gelu",
    "quantize_linear",
    "branchwise_rms_norm",
    "embed_layer_normalization",
    "gated_rms_norm",
    "gemma_rotary_embedding",
    "group_norm",
    "m_rotary_embedding",
    "rotary_embedding",
    "skip_group_norm",
    "skip_layer_normalization",
    "skip_simplified_layer_normalization",
    "torch_embedding",
)
