"""What the built-in adapters of third-party libraries (openvino, tract, onnx2torch) share: importing the library of
an optional extra with one clear line when it is missing, and telling the library's own "cannot run this" apart from
everything else it raises."""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from types import ModuleType

from conformance.backends.protocol import BackendError, Unsupported


def require(module: str, backend: str, extra: str) -> ModuleType:
    """Import `module`, the library behind the built-in `backend`; BackendError naming the extra that installs it."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise BackendError(f"backend '{backend}' needs the {module.split('.')[0]} package ({e}): install with "
                           f"pip install -e '.[{extra}]' -c constraints.txt") from e


def says_unsupported(text: str, markers: Iterable[str]) -> bool:
    """Whether a library's error text carries one of its own phrases for "cannot load, convert or compile this"."""
    return any(marker in text for marker in markers)


def raise_unsupported_if(error: BaseException, text: str, markers: Iterable[str], what: str) -> None:
    """Raise Unsupported (the library's whole message, prefixed with `what` failed) when `text` carries one of the
    library's phrases for an op, type or attribute it cannot handle; return otherwise (the caller re-raises)."""
    if says_unsupported(text, markers):
        raise Unsupported(f"{what}: {text.strip()}") from error
