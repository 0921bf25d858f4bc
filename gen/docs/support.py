"""Support tables from conform reports: per op version (its allowed element types only), per domain, per backend.

An op page shows, for each version, which of the element types its type constraints allow each backend passes,
fails or does not support; the support index has a table per domain with each backend's counts per op version;
a backend's page has a matrix per domain whose columns are the element types that domain's ops were tested with.
"""

from __future__ import annotations

from dataclasses import dataclass

from gen.docs.reports import STATUSES, Report
from opset.cells import cell_dtypes
from opset.model import OpVersion
from opset.registry import Registry

Key = tuple[str, str, int]  # (domain, op, version)


@dataclass(frozen=True, slots=True)
class VersionSupport:
    """One version's table: a column per allowed cell, a row per backend (None: the report has no such cell)."""

    columns: list[str]
    rows: list[tuple[str, list[str | None]]]  # (backend, status per column)


def version_support(version: OpVersion, reports: list[Report],
                    cells: dict[str, dict[Key, dict[str, str]]]) -> VersionSupport | None:
    """The version's support table, or None when no report tested it."""
    key = (version.domain, version.name, version.since)
    tested = [r for r in reports if key in cells[r.backend]]
    if not tested:
        return None
    drawable, undrawable = cell_dtypes(version)
    columns = drawable + undrawable
    rows = [(r.backend, [cells[r.backend][key].get(c) for c in columns]) for r in tested]
    return VersionSupport(columns, rows)


def report_cells(reports: list[Report]) -> dict[str, dict[Key, dict[str, str]]]:
    """backend -> (domain, op, version) -> cell -> status."""
    return {r.backend: r.cells() for r in reports}


@dataclass(frozen=True, slots=True)
class DomainRow:
    domain: str
    op: str
    version: int
    counts: list[dict[str, int] | None]  # per report: status -> count (None: not in that report)


def domain_tables(registry: Registry, reports: list[Report],
                  cells: dict[str, dict[Key, dict[str, str]]]) -> dict[str, list[DomainRow]]:
    """Registry domain -> a row per op version some report tested, in registry order."""
    tables: dict[str, list[DomainRow]] = {}
    for op in registry:
        for v in op.versions:
            key = (v.domain, v.name, v.since)
            counts: list[dict[str, int] | None] = []
            for r in reports:
                row = cells[r.backend].get(key)
                counts.append(None if row is None else {s: sum(1 for x in row.values() if x == s) for s in STATUSES})
            if any(c is not None for c in counts):
                tables.setdefault(op.domain, []).append(DomainRow(v.domain, v.name, v.since, counts))
    return dict(sorted(tables.items()))


def backend_domains(report: Report) -> dict[str, tuple[list[str], dict[Key, dict[str, str]]]]:
    """Domain -> (the cells tested in it, its rows): a backend's matrix split by domain, with no empty column."""
    out: dict[str, tuple[list[str], dict[Key, dict[str, str]]]] = {}
    for key, row in report.cells().items():
        columns, rows = out.setdefault(key[0], ([], {}))
        rows[key] = row
        columns.extend(c for c in row if c not in columns)
    return {d: (sorted(cols), rows) for d, (cols, rows) in sorted(out.items())}
