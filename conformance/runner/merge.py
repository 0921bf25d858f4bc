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
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from conformance.runner.shard import Shard, ShardError


class MergeError(ValueError):
    """Reports that cannot be one run's: the message names the files."""


def merge_reports(reports: Sequence[tuple[str, dict[str, Any]]]) -> tuple[dict[str, Any], list[str]]:
    """The merged report of `(name, report)` pairs, and warnings (missing shards)."""
    if not reports:
        raise MergeError("no reports to merge")
    backends = {str(data.get("backend")): name for name, data in reports}
    if len(backends) > 1:
        raise MergeError("the reports test different backends: "
                         + ", ".join(f"{name}: {backend}" for backend, name in backends.items()))
    cells: dict[str, Any] = {}
    source: dict[str, str] = {}
    unmatched: list[str] = []
    for name, data in reports:
        if not isinstance(data.get("cells"), dict):
            raise MergeError(f"{name} is not a conform report (no 'cells')")
        for key, cell in data["cells"].items():
            if key in cells:
                raise MergeError(f"{key} is in both {source[key]} and {name}: merge the shards of one run")
            cells[key], source[key] = cell, name
        unmatched += [e for e in data.get("unmatched_expectations", []) if e not in unmatched]
    warnings = _shard_problems(reports)
    merged = {k: v for k, v in reports[0][1].items() if k != "shard"}
    merged.update(cells=dict(sorted(cells.items())), unmatched_expectations=unmatched,
                  started=min(float(d.get("started", 0.0)) for _, d in reports),
                  complete=all(d.get("complete") for _, d in reports) and not warnings)
    finished = [float(d["finished"]) for _, d in reports if "finished" in d]
    if len(finished) == len(reports):
        merged["finished"] = max(finished)
    else:
        merged.pop("finished", None)
    return merged, warnings


def _shard_problems(reports: Sequence[tuple[str, dict[str, Any]]]) -> list[str]:
    """Errors for shards of different runs; a warning per shard missing from `reports`."""
    shards: dict[str, Shard] = {}
    for name, data in reports:
        if "shard" in data:
            try:
                shards[name] = Shard.from_spec(str(data["shard"]))
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
    """Merge, write, print the summary; 0 when no cell failed, 1 when one did or a shard is missing (the merged
    report is written, marked incomplete), 2 on inputs that cannot be one run's."""
    from conformance.runner.junit import write_junit
    from conformance.runner.report import Report, summarize

    try:
        merged, warnings = merge_reports([(str(path), _read(path)) for path in options.reports])
    except MergeError as e:
        print(f"conform merge: {e}", file=sys.stderr)
        return 2
    if options.report is not None:
        report = Report(options.report, str(merged.get("backend")))
        report.data = merged
        report.write()
    if options.junit is not None:
        write_junit(merged, options.junit)
    print(summarize(merged))
    for warning in warnings:
        print(f"conform merge: {warning}", file=sys.stderr)
    written = [f"{what}: {path}" for what, path in (("report", options.report), ("junit", options.junit)) if path]
    print(f"\n{len(merged['cells'])} cells from {len(options.reports)} reports" + "".join(f"; {w}" for w in written))
    return 1 if warnings or any(c.get("status") == "fail" for c in merged["cells"].values()) else 0


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
