"""Kernels of this domain: every op is its onnx (or com.microsoft) twin run between two transposes
(`channels_last`, one table of twins)."""

MODULES: tuple[str, ...] = ("channels_last",)
