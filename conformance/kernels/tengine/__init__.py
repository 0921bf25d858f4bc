"""Kernels of this domain. MODULES lists them explicitly (one op a file)."""

MODULES: tuple[str, ...] = (
    "convolution",
    "eltwise",
    "fully_connected",
    "pooling",
    "relu",
)
