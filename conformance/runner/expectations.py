"""Known backend gaps: a YAML list of {op, domain, version?, dtype?, kind?, reason}; matching cells become xfail.

`op`, `domain` and `dtype` may be fnmatch globs; `version` is a version's `since`. `kind` says what the entry is:
`bug` (the backend is wrong, or fails on a case the spec allows) or `disputed` (the text can be read the backend's way
and no registry `readings` condition records that reading, or can); absent: not triaged. An entry that matches
no cell of the registry is reported, so stale entries do not pile up.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import yaml

Cell = tuple[str, str, int, str]  # (domain, op, since, dtype)


class ExpectationsError(Exception):
    pass


KINDS = ("bug", "disputed")


@dataclass(frozen=True)
class Expectation:
    op: str
    domain: str
    reason: str
    version: int | None = None
    dtype: str | None = None
    kind: str | None = None  # one of KINDS; None: not triaged

    def matches(self, cell: Cell) -> bool:
        domain, op, since, dtype = cell
        return (fnmatch.fnmatchcase(op, self.op) and fnmatch.fnmatchcase(domain, self.domain)
                and (self.version is None or self.version == since)
                and (self.dtype is None or fnmatch.fnmatchcase(dtype, self.dtype)))

    @property
    def message(self) -> str:
        """What a cell this entry covers says: `expected (bug): <reason>` (`expected: <reason>` without a kind)."""
        kind = f" ({self.kind})" if self.kind else ""
        return f"expected{kind}: {self.reason}"

    def describe(self) -> str:
        parts = [f"{self.domain}::{self.op}"]
        if self.version is not None:
            parts.append(f"v{self.version}")
        if self.dtype is not None:
            parts.append(self.dtype)
        return " ".join(parts)


def load_expectations(path: Path) -> list[Expectation]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    except (OSError, yaml.YAMLError) as e:
        raise ExpectationsError(f"{path}: cannot read expectations: {e}") from e
    if not isinstance(data, list):
        raise ExpectationsError(f"{path}: expected a list of entries")
    out = []
    for i, entry in enumerate(data):
        if not isinstance(entry, dict) or "op" not in entry or "reason" not in entry:
            raise ExpectationsError(f"{path}: entry {i + 1} needs at least 'op' and 'reason'")
        unknown = set(entry) - {"op", "domain", "version", "dtype", "kind", "reason"}
        if unknown:
            raise ExpectationsError(f"{path}: entry {i + 1} has unknown keys {sorted(unknown)}")
        if entry.get("kind") is not None and entry["kind"] not in KINDS:
            raise ExpectationsError(f"{path}: entry {i + 1} has kind {entry['kind']!r}; it must be one of "
                                    f"{', '.join(KINDS)}")
        out.append(Expectation(op=str(entry["op"]), domain=str(entry.get("domain", "ai.onnx")),
                               reason=str(entry["reason"]),
                               version=int(entry["version"]) if entry.get("version") is not None else None,
                               dtype=str(entry["dtype"]) if entry.get("dtype") is not None else None,
                               kind=entry.get("kind")))
    return out


def expectation_for(cell: Cell, expectations: Iterable[Expectation]) -> Expectation | None:
    for entry in expectations:
        if entry.matches(cell):
            return entry
    return None


def unmatched(expectations: Iterable[Expectation], cells: Iterable[Cell]) -> list[Expectation]:
    all_cells = list(cells)
    return [e for e in expectations if not any(e.matches(c) for c in all_cells)]
