"""Kernels of this domain. MODULES lists them explicitly (one op a file)."""

MODULES: tuple[str, ...] = (
    "average_pool",
    "conv",
    "global_average_pool",
    "global_max_pool",
    "max_pool",
    "reorder_input",
    "reorder_output",
    "upsample",
)
