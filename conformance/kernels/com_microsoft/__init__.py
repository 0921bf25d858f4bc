"""Kernels of this domain. MODULES lists them explicitly (one op a file)."""

MODULES: tuple[str, ...] = (
    "dequantize_linear",
    "fast_gelu",
    "quantize_linear",
    "bifurcation_detector",
    "crop_and_resize",
    "dynamic_time_warping",
    "murmur_hash3",
    "n_gram_repeat_block",
    "pad",
    "sample_op",
    "tokenizer",
    "word_conv_embedding",
    "attn_lstm",
    "gather_packed",
)
