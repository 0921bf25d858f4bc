"""Whole-model execution on the reference kernels (or any node executor): `run_model`, `ModelRunner`, `opset run`."""

from conformance.models.runner import FeedError, ModelRunError, ModelRunner, NodeExecutor, NodeUnsupported, run_model

__all__ = ["FeedError", "ModelRunError", "ModelRunner", "NodeExecutor", "NodeUnsupported", "run_model"]
