"""What a case check needs to know about the run (backend spec, repro folder, timeout) and what it counts."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


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


@dataclass
class CheckSettings:
    spec: str  # how the backend was named on the command line (for the repro command)
    repro_dir: Path | None = None
    timeout: float = 20.0
    stats: CellStats = field(default_factory=CellStats)
    constant_inputs: str = "auto"  # which inputs the backend gets as constants (`conform --constant-inputs`)
