"""Kernels of this domain. MODULES lists them explicitly (one op a file)."""

MODULES: tuple[str, ...] = (
    "add_",
    "dense",
    "depthwise_conv_2d",
    "leaky_relu",
    "relu6",
    "up_sampling_2d",
)
