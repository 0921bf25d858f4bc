"""The JSON report: one entry per (domain, op, version, dtype) cell, rewritten atomically as results arrive (at most
once a `WRITE_INTERVAL`, and at the end: rewritten after every one of 14,000 results, it cost gigabytes of writes).
The interval also grows with the report: a rewrite waits `WRITE_COST_FACTOR` times as long as the last one took (the
whole registry's 7,000 cells make a 2.5 MB report whose indented JSON takes a third of a second to write; once a
second, that was a third of a core taken from the workers of `conform -n 2`).

A run stopped by Ctrl-C leaves the report of every cell finished so far (`"complete": false`); a killed one, of every
cell finished up to `WRITE_INTERVAL` before, and of every failed cell. A cell of
a version whose outputs are drawn at random carries `law_test`: its law case's law, arguments, draws, statistic,
bound, false-alarm rate and whether the draws were rejected (`conformance.runner.random_laws`). `examples` counts the
cases that ran and passed; `unsupported_draws` the drawn cases the backend declined (each passed over, the cell's
other draws still run), with the first one's `unsupported_reason`.
"""

from __future__ import annotations

import json
import os
import shlex
import tempfile
import time
from pathlib import Path
from typing import Any

from opset.model import op_label

WRITE_INTERVAL = 1.0  # seconds between two rewrites of the report while results arrive (a failure is written at once)
WRITE_COST_FACTOR = 20  # ... and at least this many times the last rewrite's duration: writing takes <= 5 % of the time

# every status a test or cell can have, worst first (`cell_status` says how a cell's tests make its status);
# "ambiguous": every case passed or followed another reading of the op
STATUS_ORDER = ("fail", "xpass", "ambiguous", "pass", "xfail", "unsupported")


def cell_key(domain: str, op: str, since: int, dtype: str) -> str:
    """`ai.onnx@11::AveragePool[float]`: the project's one label of a cell (`opset.model.op_label`)."""
    return op_label(domain, op, since, dtype)


def cell_status(outcomes: dict[str, int]) -> str:
    """A cell's status from its tests' outcomes. A failure fails it. A cell with a listed gap is "xpass" only when
    every one of its tests passed (the gap is gone); one of its tests still failing as expected or declining to run
    (unsupported) keeps it "xfail". Otherwise the worst of "ambiguous", "pass", "unsupported" (a cell none of
    whose tests ran is unsupported)."""
    if outcomes.get("fail"):
        return "fail"
    if outcomes.get("xfail") or outcomes.get("xpass"):
        gap_shows = outcomes.get("xfail") or outcomes.get("unsupported")
        return "xfail" if gap_shows else "xpass"
    return next(s for s in STATUS_ORDER if outcomes.get(s))


class Report:
    def __init__(self, path: Path | None, backend: str) -> None:
        self.path = path
        self._written = 0.0  # time.monotonic() of the last rewrite
        self._interval = WRITE_INTERVAL  # seconds until the next rewrite may come (`WRITE_COST_FACTOR`)
        self.data: dict[str, Any] = {"backend": backend, "started": time.time(), "complete": False,
                                     "cells": {}, "unmatched_expectations": []}

    def record(self, cell: tuple[str, str, int, str], status: str, message: str, stats: dict[str, Any]) -> None:
        key = cell_key(*cell)
        domain, op, since, dtype = cell
        entry = self.data["cells"].setdefault(key, {"domain": domain, "op": op, "version": since, "dtype": dtype,
                                                    "status": status, "tests": 0, "examples": 0,
                                                    "unsupported_draws": 0, "max_abs": 0.0,
                                                    "max_rel": 0.0, "max_ulp": 0.0, "messages": [], "repro": None})
        entry["tests"] += 1
        ambiguous = list(stats.get("ambiguous") or ())
        if ambiguous:
            entry["ambiguous"] = entry.get("ambiguous", 0) + len(ambiguous)
            if status == "pass":
                status, message = "ambiguous", ambiguous[0]
        outcomes = entry.setdefault("outcomes", {})
        outcomes[status] = outcomes.get(status, 0) + 1  # per test: a cell holds several
        entry["status"] = cell_status(outcomes)
        if message and status in ("fail", "unsupported", "xfail", "xpass", "ambiguous"):
            entry["messages"] = (entry["messages"] + [message[:2000]])[:3]
        entry["examples"] += int(stats.get("examples", 0))
        entry["unsupported_draws"] = entry.get("unsupported_draws", 0) + int(stats.get("unsupported_draws", 0))
        if stats.get("unsupported_reason") and not entry.get("unsupported_reason"):
            entry["unsupported_reason"] = str(stats["unsupported_reason"])[:500]  # the first declined draw's
        for name in ("max_abs", "max_rel", "max_ulp"):
            entry[name] = max(entry[name], float(stats.get(name, 0.0)))
        if stats.get("repro"):
            entry["repro"] = stats["repro"]
        if stats.get("law_test"):
            entry["law_test"] = stats["law_test"]
        if status == "fail" or time.monotonic() - self._written >= self._interval:
            self.write()

    def finish(self, unmatched_expectations: list[str]) -> None:
        self.data["unmatched_expectations"] = unmatched_expectations
        self.data["complete"] = True
        self.data["finished"] = time.time()
        self.write()

    def write(self) -> None:
        if self.path is None:
            return
        started = time.monotonic()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".report-", dir=self.path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(self.data, f, indent=1, sort_keys=True)
        os.replace(tmp, self.path)
        self._written = time.monotonic()
        self._interval = max(WRITE_INTERVAL, WRITE_COST_FACTOR * (self._written - started))


def summarize(data: dict[str, Any]) -> str:
    """A table per op: how many cells passed, failed, were unsupported, xfailed or xpassed; worst errors."""
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for cell in data.get("cells", {}).values():
        row = rows.setdefault((cell["domain"], cell["op"]), {s: 0 for s in STATUS_ORDER} | {"max_ulp": 0.0})
        row[cell["status"]] += 1
        row["max_ulp"] = max(row["max_ulp"], cell.get("max_ulp", 0.0))
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
    tests = {s: sum(c.get("outcomes", {}).get(s, 0) for c in data.get("cells", {}).values()) for s in STATUS_ORDER}
    lines.append(f"{'total tests':44} {tests['pass']:5} {tests['fail']:5} {tests['unsupported']:6} "
                 f"{tests['xfail']:6} {tests['xpass']:6} {tests['ambiguous']:6}")
    laws = [c for c in data.get("cells", {}).values() if c.get("law_test")]
    if laws:
        rates = sorted({f"{c['law_test']['alpha']:g}" for c in laws})
        rejected = [c for c in laws if c["law_test"]["rejected"]]
        expected = sum(c["status"] == "xfail" for c in rejected)
        lines.append(f"law tests (DKW, false-alarm rate {' / '.join(rates)} per cell): {len(laws)} cells tested, "
                     f"{len(rejected)} rejected" + (f" ({expected} in cells expected to fail)" if expected else ""))
    failures = [c for c in data.get("cells", {}).values() if c["status"] == "fail"]
    for cell in sorted(failures, key=lambda c: (c["domain"], c["op"], c["version"], c["dtype"])):
        lines.append(failure_line(cell, str(data.get("backend", "X"))))
    ambiguous = [c for c in data.get("cells", {}).values() if c["status"] == "ambiguous"]
    for cell in sorted(ambiguous, key=lambda c: (c["domain"], c["op"], c["version"], c["dtype"])):
        first = (cell["messages"] or ["(no message)"])[0].splitlines()[0]
        lines.append(f"AMBIGUOUS {cell_key(cell['domain'], cell['op'], cell['version'], cell['dtype'])}: "
                     f"{first[:300]}")
    reasons: dict[str, int] = {}
    for cell in data.get("cells", {}).values():
        if cell["status"] == "unsupported" and cell["messages"]:
            reason = unsupported_reason(cell["messages"][0].splitlines()[0])
            reasons[reason] = reasons.get(reason, 0) + 1
    for reason, count in sorted(reasons.items(), key=lambda kv: -kv[1])[:15]:
        lines.append(f"unsupported ({count} cells): {reason[:300]}")
    for entry in data.get("unmatched_expectations", []):
        lines.append(f"expectation matches no cell: {entry}")
    return "\n".join(lines)


def unsupported_reason(message: str) -> str:
    """The reason of an unsupported cell's first message: a stated no-kernel reason whole (it may hold ': '
    itself), else the message's last part."""
    text = message.removeprefix("Skipped: ").removeprefix("unsupported: ")
    _, sep, why = text.partition("]: ") if text.startswith("no reference kernel for ") else ("", "", "")
    return why if sep else text.rsplit(": ", 1)[-1]


_REPRO_TAIL = " | repro: "  # how `checks._fail` ends a message whose case has a repro bundle


def failure_line(cell: dict[str, Any], backend: str) -> str:
    """One line for a failed cell: its label, what differs on the shortest failing case the report kept (inputs'
    shapes and types, attributes) and the command that replays that case."""
    label = cell_key(cell["domain"], cell["op"], cell["version"], cell["dtype"])
    shortest, command = "(no message)", ""
    for message in cell.get("messages") or []:
        text = " ".join(str(message).split())  # one line, whatever the backend's error spans
        text = text.split("ConformanceFailure: ", 1)[-1].removeprefix(label).removeprefix(": ").strip()
        text, _, tail = text.partition(_REPRO_TAIL)
        if shortest == "(no message)" or len(_case_part(text)) < len(_case_part(shortest)):
            shortest, command = text, _relative_command(tail)
    if not command and cell.get("repro"):
        command = shlex.join(["conform", "--backend", backend, "--replay", _relative(str(cell["repro"]))])
    replay = f" | replay: {command}" if command else " | no repro bundle was written"
    sep = " " if shortest.startswith("(") else ": "  # `label (example e): ...`, `label (law case): ...`
    return f"FAIL {label}{sep}{shortest}{replay}"


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
