"""Support tables from conform reports, readable at any number of backends (one report each).

- the support index: per backend its totals, and per domain a row with each backend's counts (a column per
  backend, never one per element type);
- a page per domain: a row per op version some report tested, a column per backend with its counts;
- a page per backend: its counts per domain and every failing cell, grouped by op version, with the message of
  what differed and the command that re-runs that version's cells;
- each op page, per version: a row per element type its type constraints allow, a column per backend.

Statuses are words (`pass`, `fail` ...), not emoji: a browser without an emoji font draws those as empty boxes.
"""

from __future__ import annotations

from dataclasses import dataclass

from gen.docs.reports import STATUSES, Record, Report
from opset.cells import cell_dtypes
from opset.model import OpVersion
from opset.registry import Registry

Key = tuple[str, str, int]  # (domain, op, version)
Counts = dict[str, int]  # status -> cells
SHORT = {"pass": "pass", "fail": "fail", "unsupported": "unsup.", "xfail": "xfail", "xpass": "xpass",
         "ambiguous": "ambig."}


@dataclass(frozen=True, slots=True)
class VersionSupport:
    """One version's table: a row per allowed cell, a column per backend that tested the version."""

    backends: list[str]
    rows: list[tuple[str, list[str | None]]]  # (cell, status per backend; None: the report lacks the cell)


def version_support(version: OpVersion, reports: list[Report],
                    cells: dict[str, dict[Key, dict[str, str]]]) -> VersionSupport | None:
    """The version's support table, or None when no report tested it."""
    key = (version.domain, version.name, version.since)
    tested = [r for r in reports if key in cells[r.backend]]
    if not tested:
        return None
    drawable, undrawable = cell_dtypes(version)
    rows = [(c, [cells[r.backend][key].get(c) for r in tested]) for c in drawable + undrawable]
    return VersionSupport([r.backend for r in tested], rows)


def report_cells(reports: list[Report]) -> dict[str, dict[Key, dict[str, str]]]:
    """backend -> (domain, op, version) -> cell -> status."""
    return {r.backend: r.cells() for r in reports}


def count(row: dict[str, str]) -> Counts:
    return {s: sum(1 for x in row.values() if x == s) for s in STATUSES}


@dataclass(frozen=True, slots=True)
class DomainRow:
    domain: str
    op: str
    version: int
    counts: list[Counts | None]  # per report (None: not in that report)


def domain_tables(registry: Registry, reports: list[Report],
                  cells: dict[str, dict[Key, dict[str, str]]]) -> dict[str, list[DomainRow]]:
    """Registry domain -> a row per op version some report tested, in registry order (then the reports' other
    versions, an op the registry no longer has)."""
    keys: list[Key] = [(v.domain, v.name, v.since) for op in registry for v in op.versions]
    known = set(keys)
    keys += sorted({k for r in reports for k in cells[r.backend] if k not in known})
    tables: dict[str, list[DomainRow]] = {}
    for key in keys:
        counts = [None if (row := cells[r.backend].get(key)) is None else count(row) for r in reports]
        if any(c is not None for c in counts):
            tables.setdefault(key[0], []).append(DomainRow(*key, counts))
    return dict(sorted(tables.items()))


def domain_totals(tables: dict[str, list[DomainRow]], reports: list[Report]) -> dict[str, list[Counts | None]]:
    """Domain -> per report, its cells in the domain by status (None: the report has none there)."""
    out: dict[str, list[Counts | None]] = {}
    for domain, rows in tables.items():
        totals: list[Counts | None] = []
        for i in range(len(reports)):
            present = [row.counts[i] for row in rows if row.counts[i] is not None]
            totals.append({s: sum(c[s] for c in present if c is not None) for s in STATUSES} if present else None)
        out[domain] = totals
    return out


@dataclass(frozen=True, slots=True)
class VersionFailures:
    domain: str
    op: str
    version: int
    records: list[Record]  # the failing cells of the version

    def replay(self, backend: str) -> str:
        """The command that re-runs the version's cells on the backend (and writes each failing cell's repro
        bundle, whose own replay command re-runs the one case)."""
        return f"conform --backend {backend} --domain {self.domain} --op {self.op} --opset {self.version}"


def backend_failures(report: Report, statuses: tuple[str, ...] = ("fail",)) -> dict[str, list[VersionFailures]]:
    """Domain -> the op versions with a cell of `statuses`, each with those cells."""
    grouped: dict[Key, list[Record]] = {}
    for r in report.records:
        if r.status in statuses:
            grouped.setdefault((r.domain, r.op, r.version), []).append(r)
    out: dict[str, list[VersionFailures]] = {}
    for key in sorted(grouped):
        records = sorted({(r.dtype, r.message): r for r in grouped[key]}.values(), key=lambda r: r.dtype)
        out.setdefault(key[0], []).append(VersionFailures(*key, records))
    return out
