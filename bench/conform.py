#!/usr/bin/env python
"""`conform --backend reference` at several worker counts, side by side in one run: wall and CPU time per count,
and whether every count gives the same results.

    python bench/conform.py --shard 1/8 --workers 1,2       # an eighth of the registry's cells, at -n 1 and -n 2
    python bench/conform.py --workers 1,2                   # the whole registry (about 7,000 cells)
    python bench/conform.py --compare before.json after.json   # two reports' results, cell by cell

Each count runs the same command (`conform --backend reference --report R [--shard K/N] [-n X]`, seed 0, 25 examples
per cell). The CPU time is the children's (conform and its worker processes), so a machine shared with other work
shows it better than the wall time: the scaling is `wall(-n 1) / wall(-n X)`, and the CPU time that workers add is
their fixed cost (each imports the runner and loads the registry).

Results are the same when, for every cell, the status, the test outcomes, the count of cases run and declined and
the worst absolute, relative and ULP errors are: those errors come from the drawn values, so a change in what was
drawn shows there even when every cell still passes.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

EXACT_FIELDS = ("status", "outcomes", "examples", "unsupported_draws")
ERROR_FIELDS = ("max_abs", "max_rel", "max_ulp")
RESULT_FIELDS = EXACT_FIELDS + ERROR_FIELDS


def cells(report: Path) -> dict[str, dict[str, Any]]:
    """A conform report's cells by label."""
    found: dict[str, dict[str, Any]] = json.loads(report.read_text(encoding="utf-8"))["cells"]
    return found


def cell_changes(before: dict[str, Any], after: dict[str, Any], *, error_factor: float | None = None) -> list[str]:
    """`field x -> y` for each of RESULT_FIELDS that differs between two runs of one cell. The worst errors count
    exactly, or with `error_factor` as zero or not and otherwise within that factor (another CPU may round a
    kernel's last ULP differently)."""
    changed = []
    for f in RESULT_FIELDS:
        x, y = before.get(f), after.get(f)
        same = x == y if error_factor is None or f not in ERROR_FIELDS else _within(x, y, error_factor)
        if not same:
            changed.append(f"{f} {json.dumps(x, sort_keys=True)} -> {json.dumps(y, sort_keys=True)}")
    return changed


def _within(x: float | None, y: float | None, factor: float) -> bool:
    if not x or not y:  # zero, or absent, on either side: only the same will do
        return x == y
    return max(x, y) <= factor * min(x, y)


def differences(a: Path, b: Path) -> list[str]:
    """One line per cell whose results differ between the reports `a` and `b` (or that only one holds)."""
    ca, cb = cells(a), cells(b)
    lines = [f"{label}: only in {a if label in ca else b}" for label in sorted(set(ca) ^ set(cb))]
    for label in sorted(set(ca) & set(cb)):
        changed = cell_changes(ca[label], cb[label])
        if changed:
            lines.append(f"{label}: {'; '.join(changed)}")
    return lines


def run(workers: str, shard: str | None, report: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds of every child) of one `conform --backend reference` run."""
    command = ["conform", "--backend", "reference", "--report", str(report)]
    command += ["--shard", shard] if shard else []
    command += ["-n", workers] if workers != "1" else []
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, check=False, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--workers", default="1,2", help="comma-separated worker counts (1: no xdist)")
    p.add_argument("--shard", help="K/N: only the K-th of N parts of the cells (a sample spread over every op)")
    p.add_argument("--compare", nargs=2, type=Path, metavar="REPORT", help="compare two reports and exit")
    args = p.parse_args(argv)
    if args.compare:
        try:
            lines = differences(*args.compare)
        # not a conform report (unreadable, not JSON, no cells, a cell not a mapping): say which, no traceback
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
            print(f"bench/conform.py: cannot compare {args.compare[0]} and {args.compare[1]}: {type(e).__name__}: {e}",
                  file=sys.stderr)
            return 2
        print("\n".join(lines) if lines else f"same results in every cell ({len(cells(args.compare[0]))} cells)")
        return 1 if lines else 0
    counts = [w.strip() for w in args.workers.split(",") if w.strip()]
    with tempfile.TemporaryDirectory(prefix="bench-conform-") as tmp:
        reports = {w: Path(tmp) / f"n{w}.json" for w in counts}
        times = {w: run(w, args.shard, reports[w]) for w in counts}
        first = counts[0]
        print(f"conform --backend reference{' --shard ' + args.shard if args.shard else ''}: "
              f"{len(cells(reports[first]))} cells")
        for w in counts:
            wall, cpu = times[w]
            print(f"  -n {w}: wall {wall:7.1f} s, CPU {cpu:7.1f} s, speed-up over -n {first} "
                  f"{times[first][0] / wall:4.2f}")
        differing = [line for w in counts[1:] for line in differences(reports[first], reports[w])]
        print("same results at every worker count" if not differing else "\n".join(differing))
        return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
