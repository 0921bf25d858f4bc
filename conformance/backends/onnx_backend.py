"""Adapter for `onnx.backend.base.Backend` classes and modules (onnxruntime.backend plugs in unchanged)."""

from __future__ import annotations

import unittest
from types import ModuleType
from typing import Any

import numpy as np
import onnx

from conformance.backends.ort import is_unsupported_message
from conformance.backends.protocol import Unsupported
from conformance.containers import as_value


def looks_like_onnx_backend(obj: Any) -> bool:
    """A Backend subclass/instance, or a module exposing `prepare` and `run_model`/`supports_device`."""
    try:
        from onnx.backend.base import Backend as OnnxBackend
    except ImportError:
        return False
    if isinstance(obj, type) and issubclass(obj, OnnxBackend):
        return True
    if isinstance(obj, OnnxBackend):
        return True
    return callable(getattr(obj, "prepare", None)) and any(
        callable(getattr(obj, name, None)) for name in ("run_model", "supports_device", "is_compatible"))


class OnnxBackendAdapter:
    """`run(model, feeds)` through `supports_model` / `prepare` / `rep.run` of an onnx.backend backend."""

    def __init__(self, backend: Any) -> None:
        self.backend = backend
        self.name = onnx_backend_name(backend)

    def run(self, model: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        supports_model = getattr(self.backend, "supports_model", None) or getattr(self.backend, "is_compatible", None)
        try:
            if supports_model is not None and not supports_model(model):
                raise Unsupported("supports_model() returned False")
            rep = self.backend.prepare(model, "CPU")
        except NotImplementedError as e:
            raise Unsupported(str(e) or "not implemented") from e
        except unittest.SkipTest as e:  # onnxruntime.backend's way to decline an unreleased opset (contrib domains)
            raise Unsupported(str(e).splitlines()[0] if str(e) else "the backend skips this model") from e
        except Unsupported:
            raise
        except Exception as e:  # backends raise their own error types when a model cannot load
            if is_unsupported_message(str(e)):
                raise Unsupported(str(e).splitlines()[0]) from e
            raise
        ordered = [feeds[i.name] for i in model.graph.input if i.name in feeds]
        try:
            outputs = rep.run(ordered)
        except NotImplementedError as e:
            raise Unsupported(str(e) or "not implemented") from e
        except Exception as e:  # a kernel that declares an attribute combination unsupported when it runs
            if is_unsupported_message(str(e)):
                raise Unsupported(str(e).splitlines()[0]) from e
            raise
        return [as_value(x) for x in outputs]


def onnx_backend_name(backend: Any) -> str:
    """Which runtime an onnx.backend backend runs: its own `name` where it states one, else its top-level package
    (`onnxruntime.backend` is onnxruntime, checked against onnxruntime's expectations)."""
    stated = getattr(backend, "name", None)
    if isinstance(stated, str) and stated:
        return stated
    module = backend.__name__ if isinstance(backend, ModuleType) else type(backend).__module__ \
        if not isinstance(backend, type) else backend.__module__
    return module.split(".")[0]
