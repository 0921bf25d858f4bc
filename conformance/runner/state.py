"""Per-process state of a conformance session: the open backend and the settings of the running test."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.runner.settings import CellStats, CheckSettings


@dataclass
class SessionState:
    spec: str = "reference"
    timeout: float = 20.0
    repro_dir: Path | None = None
    backend: Any = None
    stats: CellStats = field(default_factory=CellStats)
    constant_inputs: str = "auto"


SESSION = SessionState()


def configure(spec: str, timeout: float, repro_dir: Path | None, constant_inputs: str = "auto") -> None:
    SESSION.spec, SESSION.timeout, SESSION.repro_dir = spec, timeout, repro_dir
    SESSION.constant_inputs = constant_inputs


def current() -> tuple[Any, CheckSettings]:
    """The backend (opened on first use) and settings whose stats belong to the running test."""
    if SESSION.backend is None:
        from conformance.runner.session import open_backend

        SESSION.backend = open_backend(SESSION.spec, timeout=SESSION.timeout)
    return SESSION.backend, CheckSettings(spec=SESSION.spec, repro_dir=SESSION.repro_dir, timeout=SESSION.timeout,
                                          stats=SESSION.stats, constant_inputs=SESSION.constant_inputs)


def start_test() -> None:
    SESSION.stats = CellStats()


def close() -> None:
    backend, SESSION.backend = SESSION.backend, None
    close_fn = getattr(backend, "close", None)
    if close_fn is not None:
        close_fn()
