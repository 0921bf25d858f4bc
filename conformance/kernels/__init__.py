"""Reference kernels, one op a file, one subpackage per domain (named by `Domain.module`:
`conformance/kernels/com_microsoft/`); each subpackage lists its modules explicitly."""

from __future__ import annotations

import importlib

from opset.model import module_name

KERNEL_DOMAINS = ("ai.onnx", "ai.onnx.ml", "ai.onnx.preview.training", "ai.onnx.preview", "com.microsoft",
                  "com.microsoft.nchwc", "ai.onnx.modified", "tengine", "ai.onnx.ort", "com.ms.internal.nhwc")
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
    ("com.microsoft", "BeamSearch"): "a whole decoding loop: it runs its decoder (and encoder) subgraphs once per "
                                     "generated token and keeps the best beams, so its values are the subgraphs' "
                                     "model's, not a single node's",
    ("com.microsoft", "GreedySearch"): "a whole decoding loop over its decoder subgraph (one run per generated "
                                       "token); the values are the subgraph model's",
    ("com.microsoft", "WhisperBeamSearch"): "a whole Whisper decoding loop (encoder once, decoder once per token, "
                                            "timestamp and no-speech logic); the values are the subgraph model's",
    ("com.microsoft", "Sampling"): "a whole decoding loop over its decoder subgraph that also draws each token at "
                                   "random (top-p, temperature): the values are the subgraph model's and the draw's",
    ("com.microsoft", "EPContext"): "an opaque context blob compiled by an execution provider (QNN, TensorRT, "
                                    "OpenVINO ...) for a graph partition; only that provider can run it",
    ("com.microsoft", "Snpe"): "an opaque DLC payload compiled by Qualcomm's SNPE; only the SNPE execution provider "
                               "can run it",
    ("com.microsoft", "RMSNormRotary"): "a CUDA-only fused kernel whose values are its BF16 rounding points (which "
                                        "differ between a prefill and a decode path a CPU-side control tensor "
                                        "picks); onnxruntime has no CPU kernel and no subgraph defines them",
    ("com.microsoft", "MatMulFpQ4"): "B is a blob packed by MLAS's MlasQ4GemmPackB, whose block layout is MLAS's "
                                     "internal, platform-specific format, not the operator's",
    ("com.microsoft", "QuantizeBFP"): "the BFP byte stream's layout (bfp_type's block and shared-exponent encoding) is "
                                      "specified nowhere, and no onnxruntime execution provider implements the op",
    ("com.microsoft", "DequantizeBFP"): "the BFP byte stream's layout (bfp_type's block and shared-exponent "
                                        "encoding) is specified nowhere, and no onnxruntime execution provider "
                                        "implements the op",
    ("com.microsoft", "MatMulPacked"): "a CUDA-only op whose point is B's byte layout, one of onnxruntime's "
                                       "packed-weight formats chosen by packed_type (docs/PackedWeightFormats.md)",
    ("com.microsoft", "SparseToDenseMatMul"): "A is a sparse tensor, a value kind no cell, runner or backend of the "
                                              "project carries",
    ("com.microsoft", "GemmFloat8"): "a CUDA-only op (cuBLASLt) whose scaleY, activation epilogue and float8 output "
                                     "rounding are cuBLASLt's, stated by neither the schema nor any CPU kernel",
    ("com.microsoft", "LongformerAttention"): "onnxruntime runs it on CUDA only, its sliding-window-plus-global "
                                              "attention defined by that kernel's compact band buffers",
    # CUDA-only cublasLt ops (onnxruntime registers them for the CUDA EP alone): their int8 tensors are stored in
    # the order attributes' cublasLt layouts (COL32, COL4_4R2_8C, COL32_2R_4R4 tile and interleave rows and
    # columns), so the values a node holds are a memory layout, and the arithmetic is cuBLASLt's, not a formula
    ("com.microsoft", "QuantizeWithOrder"): "CUDA-only: writes int8 in a cublasLt memory order (COL32, "
                                            "COL4_4R2_8C, ...), a layout, not a value a CPU reference can compare",
    ("com.microsoft", "DequantizeWithOrder"): "CUDA-only: reads int8 stored in a cublasLt memory order (COL32, "
                                              "COL4_4R2_8C, ...), a layout no CPU reference sees",
    ("com.microsoft", "QOrderedGelu"): "CUDA-only: int8 in a cublasLt order (ROW or COL32) in and out; onnxruntime "
                                       "has no CPU kernel to check one against",
    ("com.microsoft", "QOrderedLayerNormalization"): "CUDA-only: int8 in cublasLt ROW/COL32 order with fp16 or "
                                                     "fp32 gamma; onnxruntime has no CPU kernel to check one against",
    ("com.microsoft", "QOrderedMatMul"): "CUDA-only cublasLt int8 matmul: B is pre-transposed and tiled "
                                         "(COL4_4R2_8C, COL32_2R_4R4), A and Y in COL32; the layout is the point",
    ("com.microsoft", "QOrderedAttention"): "CUDA-only: int8 attention over cublasLt-ordered (COL32, COL4_4R2_8C) "
                                            "operands with cuBLASLt's fused rescaling; no CPU kernel exists",
    ("com.microsoft", "QOrderedLongformerAttention"): "CUDA-only: int8 sliding-window attention over "
                                                      "cublasLt-ordered operands; no CPU kernel exists",
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
    ("com.ms.internal.nhwc", "QLinearConvTranspose"): "onnxruntime implements it only in its XNNPACK execution "
                                                      "provider and no onnx or com.microsoft op is its twin: its "
                                                      "requantization and rounding are that provider's",
    ("ai.onnx.ort", "GRUUnit"): "Caffe2's GRU step (seq_lengths masking, drop_states): onnxruntime registers the "
                                "schema but has no kernel for it, and no other source defines its gate order",
    ("ai.onnx.ort", "EfficientNMS_TRT"): "a TensorRT plugin: only onnxruntime's TensorRT execution provider runs it",
    ("ai.onnx.ort", "MultilevelCropAndResize_TRT"): "a TensorRT plugin: only onnxruntime's TensorRT execution "
                                                   "provider runs it",
    ("ai.onnx.ort", "PyramidROIAlign_TRT"): "a TensorRT plugin: only onnxruntime's TensorRT execution provider runs it",
    ("ai.onnx.ort", "DisentangledAttention_TRT"): "a TensorRT plugin: only onnxruntime's TensorRT execution provider "
                                                 "runs it",
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
