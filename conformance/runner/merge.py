"""`conform merge r1.json r2.json ... --report all.json --junit all.xml`: the reports of N shards as one.

The shards of one run (`conform --shard K/N`) hold disjoint cells; their merge is the report one unsharded run gives
(the same cells with the same records; only the run's timings differ). A cell in two inputs, inputs of different
backends or of different shard counts are errors; a missing shard leaves the merged report incomplete, with a
warning.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from conformance.runner.report import RunReport
from conformance.runner.results import CellResult
from conformance.runner.shard import Shard, ShardError


class MergeError(ValueError):
    """Reports that cannot be one run's: the message names the files."""


def merge_reports(reports: Sequence[tuple[str, Mapping[str, Any]]]) -> tuple[RunReport, list[str]]:
    """The merged report of `(name, report JSON)` pairs, and warnings (missing shards)."""
    if not reports:
        raise MergeError("no reports to merge")
    runs = [(name, _as_report(name, data)) for name, data in reports]
    backends = {run.backend: name for name, run in runs}
    if len(backends) > 1:
        raise MergeError("the reports test different backends: "
                         + ", ".join(f"{name}: {backend}" for backend, name in backends.items()))
    modes = {run.constant_inputs: name for name, run in runs}
    if len(modes) > 1:
        raise MergeError("the reports feed different inputs as constants (--constant-inputs): "
                         + ", ".join(f"{name}: {mode or 'none'}" for mode, name in modes.items()))
    cells: dict[str, CellResult] = {}
    source: dict[str, str] = {}
    unmatched: list[str] = []
    for name, run in runs:
        for key, cell in run.cells.items():
            if key in cells:
                raise MergeError(f"{key} is in both {source[key]} and {name}: merge the shards of one run")
            cells[key], source[key] = cell, name
        unmatched += [e for e in run.unmatched_expectations if e not in unmatched]
    warnings = _shard_problems([(name, run.shard) for name, run in runs])
    first = runs[0][1]
    finished = [run.finished for _, run in runs]
    planned = [run.planned for _, run in runs]
    merged = RunReport(backend=first.backend, started=min(run.started for _, run in runs),
                       cells=dict(sorted(cells.items())),
                       complete=all(run.complete for _, run in runs) and not warnings,
                       finished=max(f for f in finished if f is not None) if None not in finished else None,
                       planned=sum(p for p in planned if p is not None) if None not in planned else None,
                       stopped=next((run.stopped for _, run in runs if run.stopped), None),
                       unmatched_expectations=unmatched, expectations=first.expectations,
                       constant_inputs=first.constant_inputs)
    return merged, warnings


def _as_report(name: str, data: Mapping[str, Any]) -> RunReport:
    if not isinstance(data.get("cells"), dict):
        raise MergeError(f"{name} is not a conform report (no 'cells')")
    try:
        return RunReport.from_json(data)
    except (KeyError, TypeError, ValueError) as e:
        raise MergeError(f"{name} is not a conform report ({type(e).__name__}: {e})") from e


def _shard_problems(reports: Sequence[tuple[str, str | None]]) -> list[str]:
    """Errors for shards of different runs; a warning per shard missing from `reports` (name, shard spec)."""
    shards: dict[str, Shard] = {}
    for name, spec in reports:
        if spec is not None:
            try:
                shards[name] = Shard.from_spec(spec)
            except ShardError as e:
                raise MergeError(f"{name}: {e}") from e
    if not shards:
        return []
    if len(shards) != len(reports):
        unsharded = next(name for name, _ in reports if name not in shards)
        raise MergeError(f"{unsharded} is not a shard but {next(iter(shards))} is: merge the shards of one run")
    counts = {s.count for s in shards.values()}
    if len(counts) > 1:
        raise MergeError("the reports are shards of different splits: "
                         + ", ".join(f"{name}: {shard}" for name, shard in shards.items()))
    count = counts.pop()
    present = {s.index for s in shards.values()}
    return [f"shard {k}/{count} is missing: the merged report lacks its cells" for k in range(1, count + 1)
            if k not in present]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("reports", nargs="+", type=Path, help="JSON reports of `conform --shard K/N --report`")
    parser.add_argument("--report", type=Path, help="write the merged JSON report here")
    parser.add_argument("--junit", type=Path, help="write the merged report as JUnit XML here")


def run(options: argparse.Namespace) -> int:
    """Merge, write, print the summary; 0 when no cell failed, 1 when one did, a shard is missing (the merged report
    is written, marked incomplete) or an output cannot be written, 2 on inputs that cannot be one run's or an output
    path that cannot be written, 130 / 143 on SIGINT / SIGTERM (nothing half-written is left)."""
    from conformance.signals import exit_code, signal_name, stopping_on_signals

    with stopping_on_signals():
        try:
            return _merge(options)
        except KeyboardInterrupt as e:
            print(f"conform merge: interrupted ({signal_name(e)}); nothing was written after it", file=sys.stderr)
            return exit_code(e)


def _merge(options: argparse.Namespace) -> int:
    from conformance.runner.junit import write_junit
    from conformance.runner.outputs import OutputError, check_file
    from conformance.runner.report import OutputFailed, ReportWriter, summarize

    try:
        for path, option in ((options.report, "--report"), (options.junit, "--junit")):
            if path is not None:
                check_file(path, option)
        merged, warnings = merge_reports([(str(path), _read(path)) for path in options.reports])
    except (MergeError, OutputError) as e:
        print(f"conform merge: {e}", file=sys.stderr)
        return 2
    try:
        ReportWriter(options.report).write(merged)
        if options.junit is not None:
            write_junit(merged, options.junit)
    except OutputFailed as e:
        print(f"conform merge: {e}", file=sys.stderr)
        return 1
    print(summarize(merged))
    for warning in warnings:
        print(f"conform merge: {warning}", file=sys.stderr)
    written = [f"{what}: {path}" for what, path in (("report", options.report), ("junit", options.junit)) if path]
    print(f"\n{len(merged.cells)} cells from {len(options.reports)} reports" + "".join(f"; {w}" for w in written))
    return 1 if warnings or any(c.status == "fail" for c in merged.cells.values()) else 0


def _read(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as e:
        raise MergeError(f"{path}: no such file") from e
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise MergeError(f"{path}: not a JSON report ({e})") from e
    if not isinstance(data, dict):
        raise MergeError(f"{path} is not a conform report (not a JSON object)")
    return data
