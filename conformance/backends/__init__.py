"""Backends: the protocol, the built-ins (reference, onnxruntime, onnx-reference; openvino, tract and onnx2torch
with their extras) and `--backend` resolution."""

from conformance.backends.protocol import Backend, BackendCall, BackendError, Unsupported
from conformance.backends.resolve import resolve_backend

__all__ = ["Backend", "BackendCall", "BackendError", "Unsupported", "resolve_backend"]
