"""Reference kernels, one op a file, one subpackage per domain (named by `Domain.module`:
`conformance/kernels/com_microsoft/`); each subpackage lists its modules explicitly."""

from __future__ import annotations

import importlib

from opset.model import module_name

KERNEL_DOMAINS = ("ai.onnx", "ai.onnx.ml", "ai.onnx.preview.training", "ai.onnx.preview", "com.microsoft",
                  "com.microsoft.nchwc", "ai.onnx.modified", "tengine")
KERNEL_PACKAGES = tuple(f"conformance.kernels.{module_name(domain)}" for domain in KERNEL_DOMAINS)


# Ops that have no numeric meaning a single-node kernel could compute; the reference backend reports them
# unsupported (Gradient's values come from the model runner, conformance.models.gradient).
NO_REFERENCE_KERNEL: dict[tuple[str, str], str] = {
    ("tengine", "Accuracy"): "a Caffe training layer: Tengine computes nothing for it",
    ("tengine", "Const"): "its data lives in the file's buffer table, not in the node",
    ("tengine", "Generic"): "its meaning depends on the plugin its name points to",
    ("ai.onnx.preview.training", "Gradient"): "its values depend on the part of the enclosing graph between xs, zs "
                                              "and y, which no single-node kernel sees; the model runner computes "
                                              "it (opset run, conform --suite onnx-node)",
    ("tengine", "FusedbnScaleRelu"): "Tengine numbers it but has no loader or kernel: its inputs are unspecified",
    ("com.microsoft", "LongformerAttention"): "onnxruntime runs it on CUDA only, its sliding-window-plus-global "
                                              "attention defined by that kernel's compact band buffers",
}


def load_kernel_modules() -> None:
    """Import every kernel module named in each subpackage's MODULES tuple."""
    for package in KERNEL_PACKAGES:
        pkg = importlib.import_module(package)
        for module in pkg.MODULES:
            importlib.import_module(f"{package}.{module}")
