"""Validate ONNX models against the registry: every node of every registered domain.

    from opset.validate import validate_model
    for d in validate_model("model.onnx", profile="seed000"):
        print(d)

`validate_model` raises `ModelReadError` for a file that cannot be read or is not a model,
`UnknownProfileError` for an unknown profile; everything about the model itself is a `Diagnostic`.

The names load on first use (PEP 562): the package's modules bring protobuf, onnx's message classes and the registry's
records (`opset.onnx_proto`; not onnx itself, nor numpy), which `opset validate --help` or reading `PROFILES` does not
need. The functions live in `opset.validate.api`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from opset.check_ids import CHECKS
    from opset.validate.api import _table as _table
    from opset.validate.api import check_model, default_registry, forget_outcomes, validate_model
    from opset.validate.diagnostics import Diagnostic, has_errors
    from opset.validate.profiles import PROFILES, Profile, UnknownProfileError
    from opset.validate.reading import ModelReadError
    from opset.validate.run import ValidationResult

__all__ = ["CHECKS", "PROFILES", "Diagnostic", "ModelReadError", "Profile", "UnknownProfileError",
           "ValidationResult", "check_model", "default_registry", "forget_outcomes", "has_errors", "validate_model"]

_HOMES = {
    "CHECKS": "opset.check_ids", "PROFILES": "opset.validate.profiles", "Diagnostic": "opset.validate.diagnostics",
    "ModelReadError": "opset.validate.reading", "Profile": "opset.validate.profiles",
    "UnknownProfileError": "opset.validate.profiles", "ValidationResult": "opset.validate.run",
    "check_model": "opset.validate.api", "default_registry": "opset.validate.api",
    "forget_outcomes": "opset.validate.api", "has_errors": "opset.validate.diagnostics",
    "validate_model": "opset.validate.api", "_table": "opset.validate.api",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'opset.validate' has no attribute '{name}'")
    return getattr(importlib.import_module(home), name)
