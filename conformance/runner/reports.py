"""`tools/regenerate-reports` (`python -m conformance.runner.reports`): every committed report under docs/reports/,
run again, then `gen docs`.

    tools/regenerate-reports                       # the six backends, 4 shards each, 2 at a time
    tools/regenerate-reports --backend onnxruntime --shards 2 --jobs 2
    tools/regenerate-reports --backend onnxruntime --domain ai.onnx.ort --refresh   # only a domain's cells, anew

Each backend runs at its committed report's breadth (`BREADTH`: the whole registry at conform's defaults, or for the
third-party libraries the 40 common ops of docs/backends.md at a few examples a cell). Its cells are run as
`--shards` shards (`conform --backend B --shard K/N --report ...`), `--jobs` shard runs at a time from one queue
of every backend's shards (on a 2-core machine, two: each conform run is one process), then `conform merge` writes
`docs/reports/<backend>.json` (atomically: an interrupted regeneration leaves the committed report as it was). A
backend whose extra is not installed is reported with the command that installs it and skipped; its committed
report stays. Last, `gen docs` rewrites the pages that show the reports.

With `--refresh`, only the cells of the selection (`--op`, `--domain`) run, and they replace the committed report's
cells of that selection, every other cell kept (`conformance.runner.refresh`; the report's `refreshed` lists it).

Exit status: 0 when every report of an available backend was written and `gen docs` passed, 1 otherwise (a shard
that stopped for a reason other than failing cells, a merge, `gen docs`), 130 / 143 on SIGINT / SIGTERM (every
shard run is stopped, nothing under docs/reports/ is changed by the interrupted backends).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REPORTS = ROOT / "docs" / "reports"
# the backends whose reports are committed, and the extra of pyproject.toml that installs each one's library
BACKENDS: dict[str, str | None] = {"reference": None, "onnxruntime": "ort", "onnx-reference": None,
                                   "openvino": "openvino", "tract": "tract", "onnx2torch": "torch"}
# The committed reports of the third-party libraries cover the 40 ops most models are made of (docs/backends.md), at
# 10 examples a cell and a 60 s timeout (the settings their expectations were triaged at): the whole registry at 25
# examples would take each of them most of a day on 2 cores. A regeneration runs each backend at its report's
# breadth; --op and --domain narrow it (a refresh), the examples and timeout stay.
COMMON_OPS = ("Relu", "LeakyRelu", "Sigmoid", "Tanh", "Softmax", "LogSoftmax", "Add", "Sub", "Mul", "Div", "Pow",
              "Sqrt", "Exp", "Log", "Abs", "Neg", "MatMul", "Gemm", "Conv", "ConvTranspose", "MaxPool",
              "AveragePool", "GlobalAveragePool", "BatchNormalization", "LayerNormalization", "Reshape", "Transpose",
              "Concat", "Slice", "Gather", "Squeeze", "Unsqueeze", "Flatten", "Pad", "Resize", "TopK", "ReduceMean",
              "ReduceSum", "Cast", "Clip")


@dataclass(frozen=True)
class Breadth:
    """The cells and settings of a backend's committed report (empty: conform's defaults, the whole registry)."""

    domains: tuple[str, ...] = ()
    ops: tuple[str, ...] = ()
    max_examples: int | None = None
    timeout: float | None = None

    def outside(self, ops: Sequence[str], domains: Sequence[str]) -> list[str]:
        """The op patterns and domains of a selection that reach beyond this breadth (a refresh must stay inside)."""
        from conformance.runner.config import in_selection, split_patterns

        wide = [p for p in split_patterns(ops) if self.ops and not any(in_selection("", o, [p], []) for o in self.ops)]
        return wide + [d for d in domains if self.domains and d not in self.domains]

    def describe(self) -> str:
        return f"{len(self.ops)} ops of {', '.join(self.domains)}" if self.ops else "the whole registry"

    def arguments(self, ops: Sequence[str], domains: Sequence[str]) -> list[str]:
        """conform's options for a run of this breadth, narrowed to `ops`/`domains` where given."""
        chosen_ops = list(ops) if ops else ([",".join(self.ops)] if self.ops else [])
        chosen_domains = list(domains) or list(self.domains)
        settings = [*(["--max-examples", str(self.max_examples)] if self.max_examples is not None else []),
                    *(["--timeout", f"{self.timeout:g}"] if self.timeout is not None else [])]
        return [*(x for op in chosen_ops for x in ("--op", op)),
                *(x for domain in chosen_domains for x in ("--domain", domain)), *settings]


BREADTH: dict[str, Breadth] = {
    "openvino": Breadth(("ai.onnx",), COMMON_OPS, max_examples=10, timeout=60),
    "tract": Breadth(("ai.onnx",), COMMON_OPS, max_examples=10, timeout=60),
    "onnx2torch": Breadth(("ai.onnx",), COMMON_OPS, max_examples=10, timeout=60),
}
RAN = (0, 1)  # conform's exit statuses of a run that went through (1: some cells failed, as they may)
STOP_GRACE = 10.0  # seconds a stopped shard run has to write its report and end its children


@dataclass
class ShardRun:
    backend: str
    shard: int
    report: Path
    process: subprocess.Popen[bytes] | None = None


def install_command(backend: str) -> str:
    extra = BACKENDS.get(backend)
    return f"python -m pip install -e '.[{extra}]' -c constraints.txt" if extra else "the project's own set-up"


def available(backend: str) -> str | None:
    """None when `backend` resolves here, else why not (one line)."""
    from conformance.backends.protocol import BackendError
    from conformance.runner.handle import resolve_handle

    try:
        resolve_handle(backend)
    except BackendError as e:
        return str(e)
    return None


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tools/regenerate-reports", description=__doc__.splitlines()[0])
    p.add_argument("--backend", action="append", choices=list(BACKENDS),
                   help="a backend to regenerate (repeatable; default: all six)")
    p.add_argument("--shards", type=int, default=4, help="shards per backend (default 4)")
    p.add_argument("--jobs", type=int, default=2, help="shard runs at a time (default 2, one per core)")
    p.add_argument("--reports", type=Path, default=REPORTS, help="folder of the reports (default docs/reports/)")
    p.add_argument("--no-docs", action="store_true", help="leave `gen docs` out")
    p.add_argument("--op", action="append", help="only these ops (conform's --op): a partial report, so only into "
                                                 "another --reports folder than docs/reports/, or with --refresh")
    p.add_argument("--domain", action="append", help="only these domains (conform's --domain), as --op")
    p.add_argument("--refresh", action="store_true",
                   help="put the selection's new cells in place of the committed report's cells of that selection")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    from conformance.signals import exit_code, signal_name, stopping_on_signals

    options = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    if options.shards < 1 or options.jobs < 1:
        print("regenerate-reports: --shards and --jobs must be at least 1", file=sys.stderr)
        return 2
    selecting = bool(options.op or options.domain)
    if options.refresh and not selecting:
        print("regenerate-reports: --refresh needs a selection (--op, --domain)", file=sys.stderr)
        return 2
    if selecting and not options.refresh and options.reports.resolve() == REPORTS:
        print("regenerate-reports: --op and --domain make partial reports: give another --reports folder than "
              "docs/reports/, or --refresh to put them into the committed reports", file=sys.stderr)
        return 2
    backends = options.backend or list(BACKENDS)
    if options.refresh:
        for backend in backends:
            outside = BREADTH.get(backend, Breadth()).outside(options.op or (), options.domain or ())
            if outside:
                print(f"regenerate-reports: {backend}'s report covers {BREADTH[backend].describe()}; "
                      f"{', '.join(outside)} would add cells it does not have", file=sys.stderr)
                return 2
    runs: list[ShardRun] = []
    with stopping_on_signals(), tempfile.TemporaryDirectory(prefix="reports-") as tmp:
        try:
            return _regenerate(options, backends, Path(tmp), runs)
        except KeyboardInterrupt as e:
            _stop(runs)
            print(f"regenerate-reports: interrupted ({signal_name(e)}); the reports of unfinished backends are "
                  "unchanged", file=sys.stderr)
            return exit_code(e)


def _regenerate(options: argparse.Namespace, backends: list[str], tmp: Path, runs: list[ShardRun]) -> int:
    from conformance.runner.outputs import OutputError, check_folder

    try:
        check_folder(options.reports, "--reports")
    except OutputError as e:
        print(f"regenerate-reports: {e}", file=sys.stderr)
        return 2
    ready = []
    for backend in backends:
        why = available(backend)
        if why is None:
            ready.append(backend)
        else:
            print(f"regenerate-reports: {backend} skipped, it does not load here ({why}); install it with "
                  f"{install_command(backend)}", file=sys.stderr)
    runs += [ShardRun(b, k, tmp / f"{b}-{k}.json") for b in ready for k in range(1, options.shards + 1)]
    started = time.monotonic()
    selection = {backend: BREADTH.get(backend, Breadth()).arguments(options.op or (), options.domain or ())
                 for backend in ready}
    failed = _run_shards(runs, options.shards, options.jobs, selection)
    status = 0
    for backend in ready:
        if backend in failed:
            print(f"regenerate-reports: {backend}: {failed[backend]}; docs/reports/{backend}.json is unchanged",
                  file=sys.stderr)
            status = 1
            continue
        parts = [str(r.report) for r in runs if r.backend == backend]
        target = options.reports / f"{backend}.json"
        merged = subprocess.run([sys.executable, "-m", "conformance.cli", "merge", *parts, "--report",
                                 str(tmp / f"{backend}-part.json" if options.refresh else target)], cwd=ROOT,
                                capture_output=True, text=True, check=False)
        last = (merged.stdout.strip().splitlines() or [""])[-1]
        if merged.returncode not in RAN:
            print(f"regenerate-reports: {backend}: conform merge failed: {merged.stderr.strip()}", file=sys.stderr)
            status = 1
        elif options.refresh and (why := _refresh(target, tmp / f"{backend}-part.json", options)) is not None:
            print(f"regenerate-reports: {backend}: {why}; {target} is unchanged", file=sys.stderr)
            status = 1
        else:
            print(f"regenerate-reports: {backend}: {last}")
    print(f"regenerate-reports: {len(ready)} backends in {time.monotonic() - started:.0f} s")
    if not options.no_docs and ready:
        status = max(status, subprocess.run([sys.executable, "-m", "gen.cli", "docs"], cwd=ROOT,
                                            check=False).returncode and 1)
    return status


def _refresh(target: Path, part: Path, options: argparse.Namespace) -> str | None:
    """Put the selection's new cells (`part`) into the report `target`; why not, or None when it was written."""
    import json

    from conformance.runner.config import split_patterns
    from conformance.runner.refresh import refreshed
    from conformance.runner.report import RunReport, write_text_atomically

    try:
        base = RunReport.from_json(json.loads(target.read_text(encoding="utf-8")))
        new = RunReport.from_json(json.loads(part.read_text(encoding="utf-8")))
        report = refreshed(base, new, split_patterns(options.op), list(options.domain or ()))
        write_text_atomically(target, json.dumps(report.as_json(), indent=1, sort_keys=True))
    except FileNotFoundError:
        return f"no report {target} to refresh (regenerate it whole first)"
    except (OSError, ValueError, KeyError, TypeError) as e:  # RefreshError is a ValueError
        return f"cannot refresh {target}: {e}"
    return None


def _run_shards(runs: list[ShardRun], shards: int, jobs: int, selection: dict[str, list[str]]) -> dict[str, str]:
    """Run every shard (of the cells and settings `selection[backend]` gives: conform options), `jobs` at a time; the
    backends whose shard runs did not go through, with why."""
    pending = deque(runs)
    running: list[ShardRun] = []
    failed: dict[str, str] = {}
    while pending or running:
        while pending and len(running) < jobs:
            run = pending.popleft()
            # the bundles go where a replay from the checkout finds them (conform-repro/ is not committed)
            command = [sys.executable, "-m", "conformance.cli", "--backend", run.backend, "--shard",
                       f"{run.shard}/{shards}", "--report", str(run.report), "--repro-dir",
                       str(ROOT / "conform-repro" / run.backend), *selection[run.backend]]
            with run.report.with_suffix(".err").open("wb") as errors:
                run.process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=errors)
            running.append(run)
        time.sleep(0.5)
        for run in [r for r in running if r.process is not None and r.process.poll() is not None]:
            running.remove(run)
            assert run.process is not None
            code = run.process.returncode
            if code in RAN:
                print(f"regenerate-reports: {run.backend} shard {run.shard}/{shards} done")
            else:
                stderr = run.report.with_suffix(".err").read_text(encoding="utf-8", errors="replace").strip()
                failed.setdefault(run.backend, f"shard {run.shard}/{shards} exited {code}: {stderr[-500:]}")
    return failed


def _stop(runs: list[ShardRun]) -> None:
    """SIGTERM every running shard (each writes its partial report and ends its children), then wait for them."""
    live = [r.process for r in runs if r.process is not None and r.process.poll() is None]
    for process in live:
        process.terminate()
    deadline = time.monotonic() + STOP_GRACE
    for process in live:
        try:
            process.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


if __name__ == "__main__":
    sys.exit(main())
