"""The model runner: a whole ONNX model on the reference kernels (or on any backend, node by node)."""

from conformance.models.runner import ModelRunError, ModelRunner, NodeExecutor, NodeUnsupported, run_model

__all__ = ["ModelRunError", "ModelRunner", "NodeExecutor", "NodeUnsupported", "run_model"]
