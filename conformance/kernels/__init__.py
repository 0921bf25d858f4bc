"""Reference kernels, one op a file, one subpackage per domain (named by `Domain.module`:
`conformance/kernels/com_microsoft/`); each subpackage lists its modules explicitly."""

from __future__ import annotations

import importlib

from opset.model import module_name

KERNEL_DOMAINS = ("ai.onnx", "ai.onnx.ml", "ai.onnx.preview.training", "ai.onnx.preview", "com.microsoft",
                  "com.microsoft.nchwc", "ai.onnx.modified", "tengine", "ai.onnx.ort", "com.ms.internal.nhwc")
KERNEL_PACKAGES = tuple(f"conformance.kernels.{module_name(domain)}" for domain in KERNEL_DOMAINS)


def no_reference_kernel(domain: str, op: str) -> str | None:
    """Why the reference has no kernel for an op, as its op file says (`no_reference_kernel`), or None: ops with no
    numeric meaning a single-node kernel could compute, which the reference backend reports unsupported (Gradient's
    values come from the model runner, conformance.models.gradient)."""
    from conformance.registry import current_registry

    schema = current_registry().ops.get((domain, op))
    return (schema.no_reference_kernel or None) if schema is not None else None


def ops_without_kernel() -> dict[tuple[str, str], str]:
    """(domain, op) -> the reason, for every op whose file says it has no reference kernel."""
    from conformance.registry import current_registry

    return {key: schema.no_reference_kernel for key, schema in current_registry().ops.items()
            if schema.no_reference_kernel}


def load_kernel_modules() -> None:
    """Import every kernel module named in each subpackage's MODULES tuple."""
    for package in KERNEL_PACKAGES:
        pkg = importlib.import_module(package)
        for module in pkg.MODULES:
            importlib.import_module(f"{package}.{module}")
