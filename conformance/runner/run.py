"""A conform run from its `RunConfig` to its exit status: plan the cells, run them (in this process, or in `-n N`
worker processes), and write the report, the JUnit XML and the summary from the `CellResult`s as they come back.

SIGINT and SIGTERM stop it within seconds: every child it started is ended (`pool.WorkerPool.close`, the isolation
worker of this process), the report is written with the cells done so far, marked `"complete": false`, and it exits
130 or 143 after "interrupted after N of M cells". An output that cannot be written during the run (a full disk, a
permission taken away) ends it with one line and exit 1, keeping what was written before.
"""

from __future__ import annotations

import contextlib
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from rich.console import Console

from conformance.runner.config import RunConfig
from conformance.runner.core import CellRun, CellRunner
from conformance.runner.handle import BackendHandle
from conformance.runner.plan import CellTask
from conformance.runner.progress import CellTally, LineDisplay, open_display
from conformance.runner.report import OutputFailed, ReportWriter, RunReport, summarize
from conformance.signals import Interrupted, exit_code, interrupt_if_pending, signal_name


class PipeConsole(Console):
    """rich's Console, except that a reader gone away raises BrokenPipeError (rich's own handling exits 1; conform's
    entry point ends quietly with 0 on it, as docs/limits.md says)."""

    def on_broken_pipe(self) -> None:
        raise BrokenPipeError


class InProcess:
    """The cells run one after the other in this process (no `-n`, or `-n 1`)."""

    def __init__(self, config: RunConfig, handle: BackendHandle) -> None:
        self.runner = CellRunner(config, handle)

    def run(self, tasks: Sequence[CellTask]) -> Iterator[CellRun]:
        for task in tasks:
            yield self.runner.run(task)

    def finish(self) -> None:
        self.runner.close()

    def close(self) -> None:
        self.runner.close()


def execute(config: RunConfig, handle: BackendHandle, tasks: Sequence[CellTask], report: RunReport,
            writer: ReportWriter, console: Console) -> None:
    """Run `tasks`, each result added to `report` (and written out) as it arrives. Interrupted, OutputFailed and
    BrokenPipeError end the run early with `report.stopped` saying why; every child process is ended either way."""
    display = LineDisplay(console) if config.verbose else open_display(console)
    display.collected(len(tasks))
    source = _source(config, handle, len(tasks))
    tally = CellTally(len(tasks))
    finished = False
    try:
        interrupt_if_pending()
        for run in source.run(tasks):
            report.add(run.result)
            tally.finish_cell(run.result.status)
            if run.result.status == "fail":
                display.cell_failed(run.result.label)
            display.advance(tally)
            if config.verbose:
                _print_tests(console, run)
            if run.write_error is not None:
                raise OutputFailed(run.write_error)
            writer.maybe_write(report, urgent=run.result.status == "fail")
            interrupt_if_pending()
        interrupt_if_pending()
        finished = True
    except Interrupted as e:
        report.stop(e.name)
        raise
    except KeyboardInterrupt:
        report.stop("SIGINT")
        raise
    except OutputFailed as e:
        report.stop(f"output error: {e}")
        raise
    except BrokenPipeError:
        report.stop("stdout closed")
        raise
    finally:
        display.stop()
        if finished:
            source.finish()
        else:
            source.close()


def _source(config: RunConfig, handle: BackendHandle, count: int) -> InProcess | _Pool:
    if config.workers <= 1 or count <= 1:
        return InProcess(config, handle)
    return _Pool(config, min(config.workers, count))


class _Pool:
    """The worker pool of `-n N`, reading the registry from a snapshot: edits of schemas/ during the run cannot make
    two workers disagree."""

    def __init__(self, config: RunConfig, size: int) -> None:
        from conformance.runner.pool import WorkerPool
        from opset.load import schemas_dir

        self._tmp = tempfile.TemporaryDirectory(prefix="conform-")
        snapshot = Path(self._tmp.name) / "schemas"
        shutil.copytree(schemas_dir(), snapshot, ignore=shutil.ignore_patterns(".*"))
        self.pool = WorkerPool(config, size, {"OPSET_SCHEMAS": str(snapshot)})

    def run(self, tasks: Sequence[CellTask]) -> Iterator[CellRun]:
        return self.pool.run(tasks)

    def finish(self) -> None:
        self.pool.finish()
        self._tmp.cleanup()

    def close(self) -> None:
        self.pool.close()
        self._tmp.cleanup()


def _print_tests(console: Console, run: CellRun) -> None:
    """`-v`: a line per test, and a failing test's whole account (its traceback, Hypothesis' failing example)."""
    for outcome in run.outcomes:
        counts = f" ({outcome.examples} cases)" if outcome.examples else ""
        console.print(f"{outcome.status.upper():11} {run.result.label} {outcome.test}{counts}", markup=False,
                      highlight=False, soft_wrap=True)
        if outcome.status in ("fail", "xfail") or outcome.status == "unsupported":
            console.print(f"    {outcome.message}", markup=False, highlight=False, soft_wrap=True)
        if outcome.detail:
            console.print(outcome.detail.rstrip(), markup=False, highlight=False, soft_wrap=True)


def finish_run(config: RunConfig, report: RunReport, writer: ReportWriter, elapsed: float,
               stopped: BaseException | None) -> int:
    """Write the outputs of a run that ended (`stopped`: what ended it early), print its summary; the exit status."""
    from conformance.runner.junit import write_junit

    try:
        writer.write(report)
        if config.junit is not None:
            write_junit(report, config.junit)
    except OutputFailed as e:
        print(f"conform: {e}", file=sys.stderr)
        return 1
    if isinstance(stopped, OutputFailed):
        print(f"conform: {stopped}", file=sys.stderr)
        return 1
    print()
    print(summarize(report))
    failed = sum(c.status == "fail" for c in report.cells.values())
    shard = f" (shard {config.shard})" if config.shard else ""
    written = [f"{what}: {path}" for what, path in (("report", config.report), ("junit", config.junit)) if path]
    print(f"\n{len(report.cells)} cells{shard} in {elapsed:.1f} s, {failed} failed"
          + "".join(f"; {w}" for w in written))
    if isinstance(stopped, KeyboardInterrupt):
        print(f"conform: interrupted after {len(report.cells)} of {report.planned} cells ({signal_name(stopped)}); "
              "the report is marked incomplete", file=sys.stderr)
        return exit_code(stopped)
    if failed and not config.verbose:
        print("conform -v shows each test's whole failure (tracebacks, Hypothesis' failing example)")
    return 1 if failed else 0


def run_tasks(config: RunConfig, handle: BackendHandle, tasks: Sequence[CellTask], report: RunReport,
              stale_expectations: list[str]) -> int:
    """Run the planned `tasks` and finish (a complete run's report lists `stale_expectations`, those that match no
    cell of the registry): the exit status of `conform`."""
    writer = ReportWriter(config.report)
    console = PipeConsole(soft_wrap=True)
    report.planned = len(tasks)
    started = time.monotonic()
    stopped: BaseException | None = None
    try:
        execute(config, handle, tasks, report, writer, console)
    except (KeyboardInterrupt, OutputFailed) as e:
        stopped = e
    except BrokenPipeError:  # nobody reads the summary any more; the report still says how far the run went
        with contextlib.suppress(OutputFailed):
            writer.write(report)
        raise
    else:
        report.finish(stale_expectations)
    return finish_run(config, report, writer, time.monotonic() - started, stopped)
