"""The run's report as data (`RunReport`: a `CellResult` per cell), its JSON file, and the summary printed from it.

The JSON file (`--report`) is rewritten atomically as results arrive (at most once a `WRITE_INTERVAL`, and at the
end: rewritten after every one of 14,000 results, it cost gigabytes of writes). The interval also grows with the
report: a rewrite waits `WRITE_COST_FACTOR` times as long as the last one took (the whole registry's 7,000 cells make
a 2.5 MB report whose indented JSON takes a third of a second to write; once a second, that was a third of a core
taken from the workers of `conform -n 2`). A failed cell is written at once.

A run that stops early (a signal, an output that cannot be written) writes every cell finished so far, with
`"complete": false`, `"planned"` (the cells it meant to run) and `"stopped"` (why). Cells are
`CellResult.as_json()` entries; docs/conform.md lists every key.
"""

from __future__ import annotations

import json
import os
import shlex
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.runner.results import STATUS_ORDER, CellResult, Failure, cell_key, cell_status

__all__ = ["STATUS_ORDER", "CellResult", "ReportWriter", "RunReport", "cell_key", "cell_status", "summarize"]

WRITE_INTERVAL = 1.0  # seconds between two rewrites of the report while results arrive (a failure is written at once)
WRITE_COST_FACTOR = 20  # ... and at least this many times the last rewrite's duration: writing takes <= 5 % of the time
SUMMARY_GROUPS = 15  # unsupported reasons, declined-draw cells and the like listed in the summary at most


class OutputFailed(Exception):
    """An output file or folder could not be written during the run; the message is one line naming it."""


@dataclass
class RunReport:
    """What a run found so far: one record per cell, and whether the run went through every planned cell."""

    backend: str
    started: float = field(default_factory=time.time)
    cells: dict[str, CellResult] = field(default_factory=dict)
    complete: bool = False
    finished: float | None = None
    shard: str | None = None
    planned: int | None = None  # cells the run meant to run
    stopped: str | None = None  # why a run ended early: "SIGINT", "SIGTERM", an output error
    unmatched_expectations: list[str] = field(default_factory=list)
    expectations: str | None = None  # the expectations file the run applied
    constant_inputs: str | None = None  # the inputs fed as constants (none, params, all: `--constant-inputs` resolved)
    refreshed: list[dict[str, Any]] = field(default_factory=list)  # later runs of a part (conformance.runner.refresh)

    def add(self, result: CellResult) -> None:
        self.cells[result.label] = result

    def finish(self, unmatched_expectations: list[str]) -> None:
        self.unmatched_expectations = unmatched_expectations
        self.complete = True
        self.finished = time.time()

    def stop(self, why: str) -> None:
        self.complete = False
        self.stopped = why
        self.finished = time.time()

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"backend": self.backend, "started": self.started, "complete": self.complete,
                                "cells": {k: c.as_json() for k, c in self.cells.items()},
                                "unmatched_expectations": list(self.unmatched_expectations)}
        for key in ("finished", "shard", "planned", "stopped", "expectations", "constant_inputs"):
            if getattr(self, key) is not None:
                data[key] = getattr(self, key)
        if self.refreshed:
            data["refreshed"] = [dict(r) for r in self.refreshed]
        return data

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> RunReport:
        """A report's JSON back as data (KeyError / TypeError / ValueError for one that is not a report)."""
        cells = data["cells"]
        if not isinstance(cells, Mapping):
            raise TypeError("'cells' is not a mapping")
        records = {str(k): CellResult.from_json(v) for k, v in cells.items()}
        return RunReport(backend=str(data.get("backend", "?")), started=float(data.get("started", 0.0)),
                         cells=records, complete=bool(data.get("complete")),
                         finished=float(data["finished"]) if data.get("finished") is not None else None,
                         shard=str(data["shard"]) if data.get("shard") is not None else None,
                         planned=int(data["planned"]) if data.get("planned") is not None else None,
                         stopped=str(data["stopped"]) if data.get("stopped") is not None else None,
                         unmatched_expectations=[str(e) for e in data.get("unmatched_expectations") or ()],
                         expectations=data.get("expectations"), constant_inputs=data.get("constant_inputs"),
                         refreshed=[dict(r) for r in data.get("refreshed") or ()])


class ReportWriter:
    """Writes a RunReport to `path` (nothing when None), at most once an interval unless forced."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._written = 0.0  # time.monotonic() of the last rewrite
        self._interval = WRITE_INTERVAL  # seconds until the next rewrite may come (`WRITE_COST_FACTOR`)

    def maybe_write(self, report: RunReport, *, urgent: bool = False) -> None:
        """Write when `urgent` (a failed cell) or when the interval has passed."""
        if urgent or time.monotonic() - self._written >= self._interval:
            self.write(report)

    def write(self, report: RunReport) -> None:
        """Rewrite the file atomically (a file that is not a regular one, such as a pipe, is written in place);
        OutputFailed when it cannot be: the file keeps what it held."""
        if self.path is None:
            return
        started = time.monotonic()
        text = json.dumps(report.as_json(), indent=1, sort_keys=True)
        try:
            write_text_atomically(self.path, text)
        except OSError as e:
            raise OutputFailed(f"cannot write the report {self.path}: {e.strerror or e}") from e
        self._written = time.monotonic()
        self._interval = max(WRITE_INTERVAL, WRITE_COST_FACTOR * (self._written - started))


def write_text_atomically(path: Path, text: str) -> None:
    """Replace `path` by `text` in one step (a temporary file renamed over it); a path that exists and is not a
    regular file (a pipe, a device) is written in place. OSError as the system gives it."""
    if path.exists() and not path.is_file():
        with path.open("w", encoding="utf-8") as f:
            f.write(text)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}-", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _sorted(cells: list[CellResult]) -> list[CellResult]:
    return sorted(cells, key=lambda c: (c.domain, c.op, c.version, c.dtype))


def summarize(report: RunReport) -> str:
    """A table per op: how many cells passed, failed, were unsupported, xfailed or xpassed; worst errors; then one
    line per failed, ambiguous and unexpectedly passing cell, the cells whose draws the backend declined, and the
    unsupported cells grouped by reason."""
    cells = list(report.cells.values())
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for cell in cells:
        row = rows.setdefault((cell.domain, cell.op), {s: 0 for s in STATUS_ORDER} | {"max_ulp": 0.0})
        row[cell.status] += 1
        row["max_ulp"] = max(row["max_ulp"], cell.max_ulp)
    header = (f"{'op':44} {'pass':>5} {'fail':>5} {'unsup':>6} {'xfail':>6} {'xpass':>6} {'ambig':>6} "
              f"{'max ULP':>9}")
    lines = [header, "-" * len(header)]
    for (domain, op), row in sorted(rows.items()):
        lines.append(f"{domain + '::' + op:44} {row['pass']:5} {row['fail']:5} {row['unsupported']:6} "
                     f"{row['xfail']:6} {row['xpass']:6} {row['ambiguous']:6} {row['max_ulp']:9.0f}")
    totals = {s: sum(r[s] for r in rows.values()) for s in STATUS_ORDER}
    lines.append("-" * len(header))
    lines.append(f"{'total cells':44} {totals['pass']:5} {totals['fail']:5} {totals['unsupported']:6} "
                 f"{totals['xfail']:6} {totals['xpass']:6} {totals['ambiguous']:6}")
    tests = {s: sum(c.outcomes.get(s, 0) for c in cells) for s in STATUS_ORDER}
    lines.append(f"{'total tests':44} {tests['pass']:5} {tests['fail']:5} {tests['unsupported']:6} "
                 f"{tests['xfail']:6} {tests['xpass']:6} {tests['ambiguous']:6}")
    lines += _law_line(cells)
    lines += [failure_line(c, report.backend) for c in _sorted([c for c in cells if c.status == "fail"])]
    for cell in _sorted([c for c in cells if c.status == "ambiguous"]):
        first = (cell.messages or ("(no message)",))[0]
        lines.append(f"AMBIGUOUS {cell.label}: {first[:300]}")
    lines += _xpass_lines(cells, report.expectations)
    lines += _declined_lines(cells)
    lines += _unsupported_lines(cells)
    lines += [f"expectation matches no cell: {entry}" for entry in report.unmatched_expectations]
    return "\n".join(lines)


def _law_line(cells: list[CellResult]) -> list[str]:
    laws = [c for c in cells if c.law_test]
    if not laws:
        return []
    rates = sorted({f"{c.law_test['alpha']:g}" for c in laws if c.law_test})
    rejected = [c for c in laws if c.law_test and c.law_test["rejected"]]
    expected = sum(c.status == "xfail" for c in rejected)
    return [f"law tests (DKW, false-alarm rate {' / '.join(rates)} per cell): {len(laws)} cells tested, "
            f"{len(rejected)} rejected" + (f" ({expected} in cells expected to fail)" if expected else "")]


def _xpass_lines(cells: list[CellResult], expectations: str | None) -> list[str]:
    where = f" {expectations}" if expectations else " the expectations file"
    return [f"XPASS {c.label}: listed as a known gap ({c.expected or 'no reason given'}) but every test passed: "
            f"remove its entry from{where}" for c in _sorted([c for c in cells if c.status == "xpass"])]


def _declined_lines(cells: list[CellResult]) -> list[str]:
    """Cells that ran, but on only some of their draws: the backend declined the others."""
    declined = _sorted([c for c in cells if c.unsupported_draws and c.status != "unsupported"])
    lines = []
    for cell in declined[:SUMMARY_GROUPS]:
        drawn = cell.examples + cell.ambiguous + cell.unsupported_draws
        lines.append(f"DECLINED {cell.label} ({cell.status}): {cell.unsupported_draws} of {drawn} drawn cases "
                     f"declined by the backend: {(cell.unsupported_reason or '?')[:300]}")
    if len(declined) > SUMMARY_GROUPS:
        lines.append(f"DECLINED ... and {len(declined) - SUMMARY_GROUPS} more cells with declined draws (the report's "
                     "unsupported_draws)")
    return lines


def _unsupported_lines(cells: list[CellResult]) -> list[str]:
    """The unsupported cells grouped by their reason, the most common first."""
    groups: dict[str, list[CellResult]] = {}
    for cell in cells:
        if cell.status == "unsupported":
            groups.setdefault(unsupported_reason(cell), []).append(cell)
    ranked = sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    lines = []
    for reason, members in ranked[:SUMMARY_GROUPS]:
        names = ", ".join(c.label for c in _sorted(members)[:3]) + (", ..." if len(members) > 3 else "")
        shown = f" ({names})" if len(members) > 1 else f" ({members[0].label})"
        lines.append(f"unsupported ({len(members)} cell{'s' if len(members) > 1 else ''}): {reason[:300]}{shown}")
    rest = sum(len(m) for _, m in ranked[SUMMARY_GROUPS:])
    if rest:
        lines.append(f"unsupported: {rest} more cells for {len(ranked) - SUMMARY_GROUPS} other reasons (the report "
                     "has each cell's)")
    return lines


def unsupported_reason(cell: CellResult) -> str:
    """Why a cell is unsupported, without its label: the reason it records, else (a report of an older conform)
    its first message's text after `unsupported: `."""
    if cell.unsupported_reason:
        return cell.unsupported_reason
    first = cell.messages[0] if cell.messages else "(no reason given)"
    return first.removeprefix("Skipped: ").removeprefix("unsupported: ")


_REPRO_TAIL = " | repro: "  # how a failure's message ends when its case has a repro bundle


def failure_line(cell: CellResult, backend: str) -> str:
    """One line for a failed cell: its label, what differs on the shortest failing case the report kept (inputs'
    shapes and types, attributes) and the command that replays that case."""
    found = [_failure_text(f) for f in cell.failures] or [_message_parts(str(m), cell.label) for m in cell.messages]
    shortest, command = "(no message)", ""
    for text, tail in found:
        if shortest == "(no message)" or len(_case_part(text)) < len(_case_part(shortest)):
            shortest, command = text, _relative_command(tail)
    if not command and cell.repro:
        command = shlex.join(["conform", "--backend", backend, "--replay", _relative(str(cell.repro))])
    replay = f" | replay: {command}" if command else " | no repro bundle was written"
    sep = " " if shortest.startswith("(") else ": "  # `label (example e): ...`, `label (law case): ...`
    return f"FAIL {cell.label}{sep}{shortest}{replay}"


def _failure_text(failure: Failure) -> tuple[str, str]:
    text = (f"{failure.where}: " if failure.where else "") + failure.what
    text += f"; {failure.case}" if failure.case else ""
    return " ".join(text.split()), failure.replay


def _message_parts(message: str, label: str) -> tuple[str, str]:
    """A failure message of a report without structured failures: its text after the label, and its repro command."""
    text = " ".join(message.split())  # one line, whatever the backend's error spans
    text = text.split("ConformanceFailure: ", 1)[-1].removeprefix(label).removeprefix(": ").strip()
    text, _, tail = text.partition(_REPRO_TAIL)
    return text, tail


def _case_part(text: str) -> str:
    """The case of a failure message (`Case.describe`: inputs, attributes), by which failures are compared."""
    at = text.rfind("inputs (")
    return text[at:] if at >= 0 else text


def _relative_command(command: str) -> str:
    """A repro command with its bundle path relative to the current folder when the bundle is below it; "" for
    none, or for one the report's message limit cut short."""
    try:
        words = shlex.split(command)
    except ValueError:  # an unclosed quote: the message was cut inside the command
        return ""
    if "--replay" not in words[:-1]:
        return ""
    return shlex.join([_relative(w) if i and words[i - 1] == "--replay" else w for i, w in enumerate(words)])


def _relative(path: str) -> str:
    try:
        return str(Path(path).relative_to(Path.cwd()))
    except ValueError:
        return path
