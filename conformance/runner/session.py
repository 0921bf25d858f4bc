"""Opening the backend a run talks to: in-process for the reference, isolated for everything else."""

from __future__ import annotations

from typing import Any

IN_PROCESS = frozenset({"reference"})  # our own kernels cannot crash the interpreter


def open_backend(spec: str, *, timeout: float, isolate: bool | None = None) -> Any:
    """A `CaseBackend` for `spec`; non-reference backends run in a restartable worker process."""
    from conformance.backends.resolve import resolve_backend
    from conformance.runner.worker import IsolatedBackend

    if isolate is None:
        isolate = spec not in IN_PROCESS
    if isolate:
        return IsolatedBackend(spec, timeout=timeout)
    return resolve_backend(spec)
