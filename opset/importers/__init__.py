"""Importers that build registry files from the op schemas of onnx and onnxruntime, and the drift check.

Its names load on first use (`opset.importers.command`, the command line, loads no onnx).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from opset.importers.command import main_import_onnx, main_import_ort
    from opset.importers.onnx_defs import import_onnx
    from opset.importers.ort_contrib import import_ort
    from opset.importers.yaml_writer import ImporterError

_HOMES = {"ImporterError": "opset.importers.yaml_writer", "import_onnx": "opset.importers.onnx_defs",
          "import_ort": "opset.importers.ort_contrib", "main_import_onnx": "opset.importers.command",
          "main_import_ort": "opset.importers.command"}


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        import importlib

        return getattr(importlib.import_module(_HOMES[name]), name)
    raise AttributeError(f"module 'opset.importers' has no attribute '{name}'")


__all__ = ["ImporterError", "import_onnx", "import_ort", "main_import_onnx", "main_import_ort"]
