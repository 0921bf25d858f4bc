"""Explicit kernel registration: `@kernel("ai.onnx", "Concat", since=13)`.

A kernel takes the op's inputs positionally (None for an omitted optional input; a variadic input
arrives as its separate arrays) and every attribute of the version as a keyword argument, defaults
already applied from the schema (None for an absent attribute without default). It returns a tuple
of numpy arrays, one per output.

A kernel registered with `requested_outputs=True` also gets `requested_outputs=<n>`, how many
outputs the node asks for, so it can skip optional outputs nobody wants (MaxPool's Indices); it
must still return at least that many.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from opset.model import op_label

KernelFn = Callable[..., tuple[np.ndarray, ...]]


@dataclass(frozen=True)
class KernelEntry:
    domain: str
    op: str
    since: int
    until: int | None  # last version served (inclusive); None: every later version
    fn: KernelFn
    requested_outputs: bool = False


_KERNELS: dict[tuple[str, str], list[KernelEntry]] = {}


class KernelRegistrationError(Exception):
    pass


def kernel(domain: str, op: str, *, since: int = 1, until: int | None = None,
           requested_outputs: bool = False) -> Callable[[KernelFn], KernelFn]:
    """Register `fn` for versions `since..until` (inclusive) of `domain::op`."""

    def register(fn: KernelFn) -> KernelFn:
        entries = _KERNELS.setdefault((domain, op), [])
        for e in entries:
            overlap = (e.until is None or since <= e.until) and (until is None or e.since <= until)
            if overlap:
                raise KernelRegistrationError(
                    f"{domain}::{op}: {fn.__module__}.{fn.__name__} overlaps {e.fn.__module__}.{e.fn.__name__}")
        entries.append(KernelEntry(domain, op, since, until, fn, requested_outputs))
        return fn

    return register


def find_entry(domain: str, op: str, version: int) -> KernelEntry | None:
    """The registration serving `version` (an OpVersion.since) of `domain::op`, or None."""
    _load_all()
    for e in _KERNELS.get((domain, op), ()):
        if e.since <= version and (e.until is None or version <= e.until):
            return e
    return None


def find_kernel(domain: str, op: str, version: int) -> KernelFn | None:
    """The kernel function serving `version` of `domain::op`, or None."""
    entry = find_entry(domain, op, version)
    return entry.fn if entry is not None else None


def call_kernel(entry: KernelEntry, inputs: list[Any], attrs: dict[str, Any],
                num_outputs: int | None = None) -> tuple[np.ndarray, ...]:
    """Run a registered kernel; `num_outputs` (how many outputs the node asks for) reaches kernels that want it."""
    if entry.requested_outputs and num_outputs is not None:
        return entry.fn(*inputs, requested_outputs=num_outputs, **attrs)
    return entry.fn(*inputs, **attrs)


def all_kernels() -> dict[tuple[str, str], list[KernelEntry]]:
    _load_all()
    return {k: list(v) for k, v in _KERNELS.items()}


def run_kernel(domain: str, op: str, version: int, inputs: list[Any], attrs: dict[str, Any],
               num_outputs: int | None = None) -> tuple[np.ndarray, ...]:
    entry = find_entry(domain, op, version)
    if entry is None:
        raise LookupError(f"no reference kernel for {op_label(domain, op, version)}")
    return call_kernel(entry, inputs, attrs, num_outputs)


_loaded = False


def _load_all() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        from conformance.kernels import load_kernel_modules

        load_kernel_modules()
