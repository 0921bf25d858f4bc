"""The domains the importers take, and where they write by default: plain constants, so that the command line
(`opset.importers.command`) reads them without loading onnx or onnxruntime."""

from __future__ import annotations

from opset.registry_home import default_schemas

ONNX_DOMAIN = "ai.onnx"  # the registry domain onnx.defs' default domain ("") is imported into
# registry domain -> the domain onnx.defs files its schemas under
ONNX_SOURCE_DOMAINS: dict[str, str] = {
    ONNX_DOMAIN: "",
    "ai.onnx.ml": "ai.onnx.ml",
    "ai.onnx.preview.training": "ai.onnx.preview.training",
    "ai.onnx.preview": "ai.onnx.preview",
}
ORT_LEGACY_DOMAIN = "ai.onnx.ort"  # onnxruntime's default-domain ops beyond onnx's opsets
# registry domain -> the domain onnxruntime registers its schemas under
ORT_SOURCES: dict[str, str] = {"com.microsoft": "com.microsoft", "com.microsoft.nchwc": "com.microsoft.nchwc",
                               "com.ms.internal.nhwc": "com.ms.internal.nhwc", ORT_LEGACY_DOMAIN: ""}
DEFAULT_SCHEMAS_DIR = default_schemas()  # the registry this code came with (a checkout's schemas/)
