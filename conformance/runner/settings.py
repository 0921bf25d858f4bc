"""What a case check needs to know about the run (backend spec, repro folder, timeout) and what it counts."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

RECENT_CASES = 8  # cases remembered per process, so a crash blamed on an earlier case can write that case's bundle


@dataclass
class CellStats:
    examples: int = 0
    max_abs: float = 0.0
    max_rel: float = 0.0
    max_ulp: float = 0.0
    repro: str | None = None
    ambiguous: list[str] = field(default_factory=list)  # cases that follow another reading of the op
    law_test: dict[str, Any] | None = None  # the cell's law test (`random_laws.LawTest.as_report`), if it ran
    unsupported_draws: int = 0  # drawn cases the backend declined (Unsupported), passed over one by one
    unsupported_reason: str | None = None  # the first one's reason
    write_error: str | None = None  # why a repro bundle could not be written (the run stops on it)

    @property
    def ran(self) -> int:
        """Cases the backend really ran and that were checked: passed ones and those following another reading."""
        return self.examples + len(self.ambiguous)

    def unsupported(self, reason: str) -> None:
        self.unsupported_draws += 1
        if self.unsupported_reason is None:
            self.unsupported_reason = reason

    def add(self, max_abs: float, max_rel: float, max_ulp: float) -> None:
        self.max_abs = max(self.max_abs, max_abs)
        self.max_rel = max(self.max_rel, max_rel)
        self.max_ulp = max(self.max_ulp, max_ulp)


@dataclass(frozen=True, slots=True)
class RecentCase:
    """A case sent to the backend (`call` the BackendCall it went as), with what a repro bundle of it needs."""

    call: Any
    case: Any  # conformance.strategies.case.Case
    expected: list[Any] | None
    law: bool


class RecentCases:
    """The last cases this process ran on its backend: after a crash the isolation worker may find that an earlier
    one crashes alone (`worker.IsolatedBackend`), and names it by its BackendCall."""

    def __init__(self, size: int = RECENT_CASES) -> None:
        self._cases: deque[RecentCase] = deque(maxlen=size)

    def add(self, call: Any, case: Any, expected: list[Any] | None, law: bool) -> None:
        self._cases.append(RecentCase(call, case, expected, law))

    def find(self, call: Any) -> RecentCase | None:
        return next((c for c in reversed(self._cases) if c.call is call), None)


@dataclass
class CheckSettings:
    spec: str  # how the backend was named on the command line (for the repro command)
    repro_dir: Path | None = None
    timeout: float = 20.0
    stats: CellStats = field(default_factory=CellStats)
    recent: RecentCases | None = None  # the process's recent cases, where crashes are triaged
    constant_inputs: str = "auto"  # which inputs the backend gets as constants (`conform --constant-inputs`)
