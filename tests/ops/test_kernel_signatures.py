"""Kernel signatures against the registry: defaults live only in the YAML, never in a kernel.

Callers resolve every attribute with `opset.infer.resolve_attributes` and pass every input position, so a
kernel parameter with a default would be a second, silent copy of a schema default. Each kernel must also
name exactly the attributes of every op version it serves, less those the schema marks `hint` (they never
reach a kernel): a missing one would be a TypeError at run time, an extra one a parameter no caller fills.
"""

from __future__ import annotations

import functools
import inspect

import pytest

from conformance.kernels.registry import KernelEntry, all_kernels
from opset.load import load_registry
from opset.model import OpVersion
from opset.registry import Registry

# kernels allowed to take **kwargs instead of naming every attribute (module.function); none today
TAKES_KWARGS: frozenset[str] = frozenset()
# modules whose kernels hand their inputs (*inputs) and attributes (**attributes) on to another registered kernel,
# which these checks hold to its own version: the channels-last twins of com.ms.internal.nhwc
PASS_THROUGH_MODULES: frozenset[str] = frozenset({"conformance.kernels.com_ms_internal_nhwc.channels_last"})

# kernels serving op versions that onnx.defs has and the registry does not (tested against onnx.reference only)
OUTSIDE_THE_REGISTRY: dict[str, str] = {}

ALL_ENTRIES = [e for entries in all_kernels().values() for e in entries]
ENTRIES = [e for e in ALL_ENTRIES if e.fn.__module__ not in PASS_THROUGH_MODULES]


def _name(e: KernelEntry) -> str:
    return f"{e.fn.__module__}.{e.fn.__name__}"


def _label(e: KernelEntry) -> str:
    return f"{_name(e)} ({e.domain}@{e.since}::{e.op})"


@functools.cache
def _registry() -> Registry:
    return load_registry()


def _served(e: KernelEntry) -> list[OpVersion]:
    """The registry versions this registration serves (the reference backend finds it by version.since)."""
    op = _registry().op(e.domain, e.op)
    return [v for v in op.versions if e.since <= v.since and (e.until is None or v.since <= e.until)]


def _parameters(e: KernelEntry) -> list[inspect.Parameter]:
    return list(inspect.signature(e.fn).parameters.values())


BY_ENTRY = pytest.mark.parametrize("entry", ENTRIES, ids=[f"{e.domain}@{e.since}::{e.op}" for e in ENTRIES])


@BY_ENTRY
def test_kernel_declares_no_defaults(entry: KernelEntry) -> None:
    defaults = [f"{p.name}={p.default!r}" for p in _parameters(entry) if p.default is not p.empty]
    assert not defaults, f"{_label(entry)} declares defaults {defaults}: they belong in the registry YAML"


@BY_ENTRY
def test_kernel_serves_registry_versions(entry: KernelEntry) -> None:
    if _name(entry) in OUTSIDE_THE_REGISTRY:
        assert not _served(entry), f"{_label(entry)} now serves registry versions: drop it from the table"
        return
    assert _served(entry), f"{_label(entry)} serves no version of the registry"


@BY_ENTRY
def test_kernel_keywords_are_the_attributes_of_every_version_it_serves(entry: KernelEntry) -> None:
    params = _parameters(entry)
    keywords = {p.name for p in params if p.kind is p.KEYWORD_ONLY} - {"requested_outputs"}
    takes_kwargs = any(p.kind is p.VAR_KEYWORD for p in params)
    problems = []
    if ("requested_outputs" in {p.name for p in params}) != entry.requested_outputs:
        problems.append("takes requested_outputs exactly when registered with requested_outputs=True")
    for v in _served(entry):
        passed = {name for name, attr in v.attributes.items() if not attr.hint}
        extra = sorted(keywords - passed)
        missing = [] if takes_kwargs else sorted(passed - keywords)
        if extra:
            problems.append(f"{v.signature} has no attributes {extra}")
        if missing:
            problems.append(f"{v.signature} attributes {missing} are not parameters")
    assert not problems, f"{_label(entry)}: " + "; ".join(problems)


@BY_ENTRY
def test_kernel_takes_every_input_position(entry: KernelEntry) -> None:
    params = _parameters(entry)
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    variadic = any(p.kind is p.VAR_POSITIONAL for p in params)
    for v in _served(entry):
        if any(p.variadic for p in v.inputs):  # the fixed inputs by position, then the variadic last one as *rest
            assert variadic and len(positional) == len(v.inputs) - 1, (
                f"{_label(entry)}: {v.signature} has inputs {[p.name for p in v.inputs]} (the last variadic): take "
                f"the fixed ones by position, then *{v.inputs[-1].name}")
        else:
            assert not variadic and len(positional) == len(v.inputs), (
                f"{_label(entry)}: {v.signature} has inputs {[p.name for p in v.inputs]}, the kernel takes "
                f"{[p.name for p in positional]}")


def test_the_pass_through_kernels_serve_registry_versions_through_registered_twins() -> None:
    passing = [e for e in ALL_ENTRIES if e.fn.__module__ in PASS_THROUGH_MODULES]
    assert {e.fn.__module__ for e in passing} == PASS_THROUGH_MODULES
    assert all(_served(e) for e in passing), [_label(e) for e in passing if not _served(e)]


def test_kernels_taking_kwargs_are_listed() -> None:
    found = {_name(e) for e in ENTRIES if any(p.kind is p.VAR_KEYWORD for p in _parameters(e))}
    assert found == TAKES_KWARGS, f"kernels taking **kwargs: {sorted(found)}; listed: {sorted(TAKES_KWARGS)}"
