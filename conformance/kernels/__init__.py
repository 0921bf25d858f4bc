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
    ("com.microsoft", "MoEPacked"): "onnxruntime has no CPU kernel; its expert weights are packed blobs whose layout "
                                    "is named by contract format ids (gate_type, up_type, down_type) defined only by "
                                    "its CUDA and WebGPU kernels",
    ("com.microsoft", "GatedDeltaNetStateReplay"): "CUDA-only; it copies state between backing allocations at offsets"
                                                   " an 11-word metadata tensor names, so its meaning is a device "
                                                   "memory layout, not a function of tensors",
    ("com.microsoft", "ConvStateReplay"): "CUDA-only; it rebuilds a convolution state between backing allocations at "
                                          "byte offsets an 8-word metadata tensor names, so its meaning is a device "
                                          "memory layout, not a function of tensors",
    ("com.microsoft", "SpeculativePrefixCommit"): "CUDA-only stateful control op: it publishes records to a result "
                                                  "ring at a raw device address (ptrs) and its outputs alias its "
                                                  "inputs",
    ("com.microsoft", "Mamba2Verify"): "CUDA-only (bfloat16, d_state 128, head_dim 64); the layout of its packed "
                                       "projection and of its state snapshots is defined only by onnxruntime's CUDA "
                                       "kernel",
    ("com.microsoft", "PagedAttention"): "CUDA-only; its meaning is defined by the paged KV-cache block table layout "
                                         "and the in-place cache writes of onnxruntime's CUDA kernel",
    ("com.microsoft", "SparsePagedAttention"): "CUDA-only; its meaning is defined by the paged KV-cache block table "
                                               "layout, the in-place cache writes and the selected-entry addressing "
                                               "of onnxruntime's CUDA kernel",
    ("com.microsoft", "DynamicSparseAttention"): "CUDA-only; its cache update, INT8 cache scales and validation-"
                                                 "status codes are defined only by onnxruntime's CUDA kernel",
    ("com.microsoft", "PackedSparseAttentionIndexer"): "CUDA and WebGPU only; a stateful indexer whose fixed-capacity"
                                                       " state buffers, status codes and IndexShare reuse are defined"
                                                       " by those device kernels",
    ("com.microsoft", "PackedSparseAttentionIndexerMerge"): "CUDA-only; its per-query status codes for invalid "
                                                            "selections are defined only by onnxruntime's CUDA kernel",
    ("com.microsoft", "SparseAttentionIndexer"): "onnxruntime has no CPU kernel; its top-k tie order and its "
                                                 "compressed-key buffer carried between calls are defined only by the"
                                                 " device kernels",
}


def load_kernel_modules() -> None:
    """Import every kernel module named in each subpackage's MODULES tuple."""
    for package in KERNEL_PACKAGES:
        pkg = importlib.import_module(package)
        for module in pkg.MODULES:
            importlib.import_module(f"{package}.{module}")
