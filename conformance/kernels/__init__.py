"""Reference kernels, one op a file; each subpackage lists its modules explicitly."""

from __future__ import annotations

import importlib

KERNEL_PACKAGES = (
    "conformance.kernels.onnx",
    "conformance.kernels.microsoft",
    "conformance.kernels.modified",
    "conformance.kernels.tengine",
)


def load_kernel_modules() -> None:
    """Import every kernel module named in each subpackage's MODULES tuple."""
    for package in KERNEL_PACKAGES:
        pkg = importlib.import_module(package)
        for module in pkg.MODULES:
            importlib.import_module(f"{package}.{module}")
