"""What `opset.validate` gives (it re-exports these lazily): `check_model`, `validate_model`, `forget_outcomes`,
the version table each registry's runs share."""

from __future__ import annotations

import os

from opset.formula.formula import walked_evaluation
from opset.load import gc_paused, load_registry
from opset.onnx_proto import pb
from opset.registry import Registry
from opset.validate.diagnostics import Diagnostic
from opset.validate.outcomes import forget_all
from opset.validate.profiles import Profile, get_profile
from opset.validate.reading import read_model
from opset.validate.run import ModelValidation, ValidationResult
from opset.validate.signatures import VersionTable

_TABLES: dict[int, VersionTable] = {}
_DEFAULT: list[Registry] = []  # the checkout's registry, loaded once per process


def _table(registry: Registry | None) -> VersionTable:
    if registry is None:
        if not _DEFAULT:
            _DEFAULT.append(load_registry())
        registry = _DEFAULT[0]
    table = _TABLES.get(id(registry))
    if table is None or table.registry is not registry:
        table = VersionTable(registry)
        _TABLES.clear()  # one registry at a time; the table keeps it alive
        _TABLES[id(registry)] = table
    return table


def default_registry() -> Registry:
    """The registry `check_model` validates against when given none: this checkout's (or the wheel's), loaded once per
    process on first use. A benchmark calls it before timing, as onnx's schemas are loaded before its checker runs."""
    return _table(None).registry


def check_model(model: pb.ModelProto | str | os.PathLike[str], profile: str | Profile | None = None,
                registry: Registry | None = None, *, fast: bool = True, form: bool = True) -> ValidationResult:
    """Diagnostics and the validated type and shape of every main-graph value.

    `fast=False` is the plain path: every node checked afresh (no reuse of an earlier node's formula results or
    outcome) and formulas evaluated by walking their trees, not by their compiled closures. Both give the same
    result; the plain one is the reference the fast one is tested against. `form=False` leaves out what onnx's
    checker requires of an ONNX file's own fields (`opset.validate.form`: declared main-graph types, graph names,
    IR version): for a model built from another format to validate its nodes (a .tmfile's ONNX view)."""
    proto = model if isinstance(model, pb.ModelProto) else read_model(model)
    chosen = profile if isinstance(profile, Profile) else get_profile(profile)
    validation = ModelValidation(proto, _table(registry), chosen, fast=fast, form=form)
    with gc_paused():  # the run allocates many short-lived objects and no cycles (`opset.load.gc_paused`)
        if fast:
            return validation.run()
        with walked_evaluation():
            return validation.run()


def forget_outcomes() -> None:
    """Drop what validation keeps across calls, every bounded store of `opset.validate.outcomes`: node outcomes,
    what it read of nodes, declarations and small initializers (`graph.read_node`, `facts.kept_value_info`,
    `tensors.kept_initializer`) and what it found of opset imports. The next validation reads every node and checks
    every node signature afresh, as the first one in a process does (compiled formulas and resolved versions
    stay)."""
    forget_all()


def validate_model(model: pb.ModelProto | str | os.PathLike[str], profile: str | Profile | None = None,
                   registry: Registry | None = None) -> list[Diagnostic]:
    """Every diagnostic for `model` (a ModelProto or a path), errors and warnings, in graph order."""
    return check_model(model, profile, registry).diagnostics
