"""The backend of a run, resolved once per process into one typed handle, and the face its cases meet.

The CLI resolves `--backend` once (an unknown name is a usage error before anything runs; the handle's identity picks
the expectations file). What runs the cases is `open_cases`: the handle's own backend for the reference (our kernels
cannot crash the interpreter), a restartable isolation worker (`conformance.runner.worker`) for every other one,
which resolves the name once in its own process.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

from conformance.backends.protocol import Backend, BackendCall

IN_PROCESS = frozenset({"reference"})  # our own kernels cannot crash the interpreter


class CaseBackend(Protocol):
    """What a case is run on: a resolved `Backend`, or an `IsolatedBackend` standing in for one."""

    def supports(self, call: BackendCall) -> bool: ...

    def run(self, call: BackendCall) -> list[np.ndarray]: ...


@dataclass(frozen=True, slots=True)
class BackendHandle:
    """`--backend` resolved: the name as given (what a replay command repeats), who the backend says it is (its
    expectations file's name) and the adapter of this process."""

    spec: str
    identity: str
    backend: Backend

    def constant_inputs(self, mode: str) -> str:
        """The inputs a run of `--constant-inputs mode` feeds as constants: `mode`, or for `auto` what the backend's
        own `constant_inputs` attribute asks for (none when it states nothing)."""
        return self.backend.constant_inputs if mode == "auto" else mode

    @property
    def isolated(self) -> bool:
        """Whether its cases run in an isolation worker rather than in this process."""
        return self.spec not in IN_PROCESS


def resolve_handle(spec: str) -> BackendHandle:
    """The handle of `spec`; BackendError (a readable one-line reason) when it cannot be resolved."""
    from conformance.backends.resolve import resolve_backend

    backend = resolve_backend(spec)
    return BackendHandle(spec, backend.identity, backend)


def open_cases(spec: str, *, timeout: float, handle: BackendHandle | None = None) -> CaseBackend:
    """What this process runs the cases of `spec` on: the handle's backend in-process (resolved here when no handle
    is given), else an isolation worker (`timeout` seconds per case)."""
    from conformance.runner.worker import IsolatedBackend

    if spec not in IN_PROCESS:
        return IsolatedBackend(spec, timeout=timeout)
    return (handle or resolve_handle(spec)).backend


def close_cases(backend: object) -> None:
    """End what `open_cases` started (an isolation worker's process); nothing for an in-process backend."""
    close = getattr(backend, "close", None)
    if isinstance(backend, Backend) or close is None:
        return
    close()
