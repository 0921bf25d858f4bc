"""`--backend X`: a built-in name, an `opset.backends` entry point, `mod` / `mod:factory` / `path.py[:factory]`,
or any onnx.backend.base.Backend class or module.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from conformance.backends.onnx_backend import OnnxBackendAdapter, looks_like_onnx_backend
from conformance.backends.protocol import Backend, BackendError

BUILTINS = {
    "reference": "conformance.backends.reference:ReferenceBackend",
    "onnxruntime": "conformance.backends.ort:OnnxRuntimeBackend",
    "onnx-reference": "conformance.backends.onnx_reference:OnnxReferenceBackend",
    # optional extras: the library each needs comes with `pip install -e '.[openvino]'` ('.[tract]', '.[torch]')
    "openvino": "conformance.backends.openvino_backend:OpenVinoBackend",
    "tract": "conformance.backends.tract_backend:TractBackend",
    "onnx2torch": "conformance.backends.onnx2torch_backend:Onnx2TorchBackend",
}
ENTRY_POINT_GROUP = "opset.backends"
FACTORY_NAMES = ("backend", "Backend", "make_backend", "create_backend")


def resolve_backend(spec: str) -> Backend:
    """The backend `spec` names, adapted to the protocol. Raises BackendError with a readable message."""
    target = BUILTINS.get(spec) or _entry_point(spec) or spec
    obj = _load(target, spec)
    return Backend(_instantiate(obj, spec), spec)


def backend_identity(spec: str) -> str:
    """The identity of the backend `spec` names (`Backend.identity`): `onnxruntime.backend` is onnxruntime."""
    return resolve_backend(spec).identity


def _entry_point(name: str) -> str | None:
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name == name:
            return str(ep.value)
    return None


def _load(target: str, spec: str) -> Any:
    module_part, _, attr = target.partition(":")
    if module_part.endswith(".py") or "/" in module_part:
        module = _load_file(Path(module_part), spec)
    else:
        try:
            module = importlib.import_module(module_part)
        except ImportError as e:
            raise BackendError(f"backend '{spec}': cannot import module '{module_part}': {e}") from e
    if attr:
        if not hasattr(module, attr):
            raise BackendError(f"backend '{spec}': module '{module_part}' has no attribute '{attr}'")
        return getattr(module, attr)
    if looks_like_onnx_backend(module):
        return module
    for name in FACTORY_NAMES:
        if hasattr(module, name):
            return getattr(module, name)
    if callable(getattr(module, "run", None)):
        return module
    raise BackendError(f"backend '{spec}': module '{module_part}' has none of {', '.join(FACTORY_NAMES)}, no run() "
                       "and is not an onnx.backend backend; name the factory as 'module:factory'")


def _load_file(path: Path, spec: str) -> Any:
    if not path.is_file():
        raise BackendError(f"backend '{spec}': no such file {path}")
    module_spec = importlib.util.spec_from_file_location(f"conform_backend_{path.stem}", path)
    if module_spec is None or module_spec.loader is None:
        raise BackendError(f"backend '{spec}': cannot load {path}")
    module = importlib.util.module_from_spec(module_spec)
    try:
        module_spec.loader.exec_module(module)
    except ImportError as e:  # as for a module path: what the file imports is missing
        raise BackendError(f"backend '{spec}': {path} cannot import what it needs: {e}") from e
    return module


def _instantiate(obj: Any, spec: str) -> Any:
    if looks_like_onnx_backend(obj):
        return OnnxBackendAdapter(obj)
    if inspect.isclass(obj) or (callable(obj) and not hasattr(obj, "run")):
        try:
            obj = obj()
        except TypeError as e:
            raise BackendError(f"backend '{spec}': calling {obj!r} with no arguments failed: {e}") from e
    if looks_like_onnx_backend(obj):
        return OnnxBackendAdapter(obj)
    if not callable(getattr(obj, "run", None)):
        raise BackendError(f"backend '{spec}': {type(obj).__name__} has no run() method")
    return obj
