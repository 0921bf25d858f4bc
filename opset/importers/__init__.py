"""Importers that build registry files from the op schemas of onnx and onnxruntime, and the drift check."""

from opset.importers.onnx_defs import import_onnx, main_import_onnx
from opset.importers.ort_contrib import import_ort, main_import_ort
from opset.importers.yaml_writer import ImporterError

__all__ = ["ImporterError", "import_onnx", "import_ort", "main_import_onnx", "main_import_ort"]
