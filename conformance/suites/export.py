"""`conform export DIR`: conform's cases as a frozen corpus in the ONNX backend test-data layout, for runners that
are not Python (onnxruntime's `onnx_test_runner`, a C++ backend's own test driver) and for onnx's loader.

    conform export corpus/ --op Conv --op 'Reduce*' --domain ai.onnx --draws 2 --seed 0
    conform --suite corpus/ --backend onnxruntime

Per op version selected: its YAML examples, and per cell (element type) `--draws` cases drawn by conform's own
strategies with a seed fixed by `--seed` and the cell, so the same command writes the same bytes. Next to the case
folders (`export_cases` says what one holds): `manifest.json` (every case with its cell, so `conform --suite DIR`
reports cells as the property runs do) and `README.txt` (how to run the corpus, and what was left out and why).
Exit status: 0 when written, 1 when a file could not be written, 2 on a usage error (nothing selected, DIR holds
something else or cannot be written), 130 / 143 when SIGINT / SIGTERM stopped it (the manifest then lists the cases
written so far and says `"complete": false`).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import shlex
import shutil
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from opset.model import OpSchema, OpVersion, op_label

if TYPE_CHECKING:  # the cases (numpy, onnx, Hypothesis) load when an export runs: `conform export --help` needs none
    from conformance.suites.export_cases import CellExport, ExportedCase, LeftOut

DEFAULT_DRAWS = 2
MANIFEST = "manifest.json"
README = "README.txt"
FORMAT = "conform-export/1"


@dataclass(frozen=True, slots=True)
class Export:
    """What an export wrote and what it left out."""

    cases: tuple[ExportedCase, ...]
    left_out: tuple[LeftOut, ...]


@dataclass
class ExportSink:
    """What an export has written so far: an interrupted one's manifest lists it."""

    cases: list[ExportedCase] = field(default_factory=list)
    left_out: list[LeftOut] = field(default_factory=list)
    cells_planned: int = 0
    cells_done: int = 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="conform export", description=__doc__.splitlines()[0])
    add_arguments(p)
    return p


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of `conform export` (on conform's subcommand parser or this module's own)."""
    p.add_argument("dir", type=Path, help="folder to write the corpus into (absent, empty, or a previous export, "
                                          "which is replaced)")
    p.add_argument("--op", action="append", help="op name glob (repeatable, or comma-separated)")
    p.add_argument("--domain", action="append", help="registry domain (repeatable)")
    p.add_argument("--draws", type=int, default=DEFAULT_DRAWS,
                   help=f"drawn cases per cell, besides the examples (default {DEFAULT_DRAWS})")
    p.add_argument("--seed", type=int, default=0, help="seed of the draws (default 0: the same corpus every time)")
    p.add_argument("-j", "--jobs", type=int, default=1, help="processes drawing cells (default 1; the corpus is the "
                                                              "same for any number)")


def main(argv: Sequence[str] | None = None) -> int:
    return run(build_parser().parse_args(list(sys.argv[1:] if argv is None else argv)))


def run(options: argparse.Namespace) -> int:
    """Write the corpus `options` ask for; the exit status: 0 written, 1 when a file could not be written (what was
    written stays), 2 on a usage error (the folder checked before any case is drawn), 130 / 143 on SIGINT / SIGTERM
    (the manifest then lists the cases written so far, marked `"complete": false`)."""
    from conformance.signals import exit_code, signal_name, stopping_on_signals

    with stopping_on_signals():
        sink = ExportSink()
        try:
            return _run(options, sink)
        except KeyboardInterrupt as e:
            written = _write_partial(options, sink)
            print(f"conform export: interrupted after {sink.cells_done} of {sink.cells_planned} cells "
                  f"({signal_name(e)}); {written}", file=sys.stderr)
            return exit_code(e)
        except OSError as e:
            print(f"conform export: cannot write in {options.dir}: {e.strerror or e}"
                  + (f" ({e.filename})" if e.filename else ""), file=sys.stderr)
            return 1


def _run(options: argparse.Namespace, sink: ExportSink) -> int:
    if options.draws < 0 or options.jobs < 1:
        print("conform export: --draws must be >= 0 and --jobs >= 1", file=sys.stderr)
        return 2
    from conformance.runner.config import split_patterns
    from conformance.runner.outputs import OutputError, check_folder
    from conformance.test_modules.generator import select_ops
    from opset.errors import RegistryError

    try:
        check_folder(options.dir, "")
        from conformance.registry import current_registry

        registry = current_registry()
    except OutputError as e:
        print(f"conform export: {e}", file=sys.stderr)
        return 2
    except RegistryError as e:
        print(f"conform export: the registry does not load:\n{e}", file=sys.stderr)
        return 2
    ops = select_ops(registry, split_patterns(options.op), options.domain or [])
    if not ops:
        print("conform export: no op matches the selection", file=sys.stderr)
        return 2
    problem = prepare_folder(options.dir)
    if problem is not None:
        print(f"conform export: {problem}", file=sys.stderr)
        return 2
    started = time.monotonic()
    result = export(options.dir, ops, options.draws, options.seed, options.jobs, sink)
    command = _command(options)
    write_manifest(options.dir, result, command, options.draws, options.seed)
    from conformance.suites.export_readme import readme_text

    (options.dir / README).write_text(readme_text(result.cases, result.left_out, command, options.draws,
                                                  options.seed), encoding="utf-8")
    print(f"conform export: {len(result.cases)} cases in {options.dir} ({len(result.left_out)} left out, see "
          f"{options.dir / README}) in {time.monotonic() - started:.1f} s")
    return 0


def _write_partial(options: argparse.Namespace, sink: ExportSink) -> str:
    """The manifest of an interrupted export (its cases so far, `"complete": false`); what was done, in words."""
    if not sink.cases and not sink.left_out:
        return "nothing was written"
    result = Export(tuple(sorted(sink.cases, key=lambda c: c.name)), tuple(sink.left_out))
    try:
        write_manifest(options.dir, result, _command(options), options.draws, options.seed, complete=False)
    except OSError as e:
        return f"its manifest could not be written ({e.strerror or e})"
    return f"{options.dir / MANIFEST} lists the {len(result.cases)} cases written, marked incomplete"


def _command(options: argparse.Namespace) -> str:
    """The command that writes this corpus again (DIR stands for the folder: the text is the same wherever the
    corpus is written)."""
    args = ["conform", "export", "DIR", "--draws", str(options.draws), "--seed", str(options.seed)]
    args += [x for op in options.op or () for x in ("--op", op)]
    args += [x for d in options.domain or () for x in ("--domain", d)]
    return shlex.join(args)


def prepare_folder(out: Path) -> str | None:
    """Make `out` ready: created when absent; a previous export's cases, manifest and README removed. Returns
    what is wrong instead when it is a file or holds anything else."""
    if out.exists() and not out.is_dir():
        return f"{out} is a file, not a folder"
    out.mkdir(parents=True, exist_ok=True)
    manifest = out / MANIFEST
    if manifest.is_file():
        try:
            previous = json.loads(manifest.read_text(encoding="utf-8"))
        except json.JSONDecodeError as e:
            return f"{manifest} is not a conform export manifest ({e})"
        if not isinstance(previous, dict) or previous.get("format") != FORMAT:
            return f"{manifest} is not a conform export manifest (no format {FORMAT!r})"
        for entry in previous.get("cases", []):
            name = str(entry.get("name", ""))
            if name and "/" not in name and name not in (".", ".."):  # only the folders it lists
                shutil.rmtree(out / name, ignore_errors=True)
        manifest.unlink()
        (out / README).unlink(missing_ok=True)
    if any(out.iterdir()):
        return f"{out} is not empty and holds no previous export: choose an empty or new folder"
    return None


def export(out: Path, ops: Sequence[OpSchema], draws: int, seed: int, jobs: int = 1,
           sink: ExportSink | None = None) -> Export:
    """Write the cases of `ops` into `out` (existing and empty), each recorded in `sink` as it is written."""
    from conformance.suites.export_cases import NO_KERNEL, NUMPY_TYPE, REMOVED, LeftOut, export_example
    from conformance.test_modules.generator import resolvable_versions
    from opset.cells import cell_dtypes

    sink = sink if sink is not None else ExportSink()
    cells: list[tuple[str, str, int, str]] = []
    examples = []
    for op in ops:
        versions = resolvable_versions(op)
        sink.left_out += [LeftOut(v.signature, REMOVED) for v in op.versions if v not in versions]
        for version in versions:
            why = _without_kernel(version)
            if why is not None:
                sink.left_out.append(LeftOut(version.signature, NO_KERNEL, why))
                continue
            drawable, other = cell_dtypes(version)
            sink.left_out += [LeftOut(op_label(version.domain, version.name, version.since, d), NUMPY_TYPE)
                              for d in other]
            examples += [(version, example) for example in version.examples]
            if draws:
                cells += [(version.domain, version.name, version.since, d) for d in drawable]
    sink.cells_planned = len(cells)
    for version, example in examples:
        found = export_example(version, example, out)
        if isinstance(found, LeftOut):
            sink.left_out.append(found)
        else:
            sink.cases.append(found)
    sink.cells_planned = len(cells)
    for result in _cell_exports(cells, draws, seed, out, jobs):
        sink.cases += result.cases
        sink.left_out += result.left_out
        sink.cells_done += 1
    return Export(tuple(sorted(sink.cases, key=lambda c: c.name)), tuple(sink.left_out))


def _without_kernel(version: OpVersion) -> str | None:
    """Why the reference has no kernel for the version, when it states one (its cases may not even be drawable)."""
    from conformance.kernels import no_reference_kernel

    return no_reference_kernel(version.domain, version.name)


def _cell_exports(cells: list[tuple[str, str, int, str]], draws: int, seed: int, out: Path,
                  jobs: int) -> Iterator[CellExport]:
    tasks = [(cell, draws, seed, out) for cell in cells]
    if jobs == 1 or len(tasks) < 2:
        yield from map(_export_cell_task, tasks)
        return
    # fork: the workers share the loaded registry; each cell's draws depend on the cell alone, so the corpus is
    # the same whichever worker draws which cell
    with multiprocessing.get_context("fork").Pool(jobs, initializer=_leave_signals_to_the_parent) as pool:
        yield from pool.imap(_export_cell_task, tasks, chunksize=8)  # leaving the block early terminates the workers


def _leave_signals_to_the_parent() -> None:
    """A forked worker inherits conform's handlers: Ctrl-C (sent to the whole process group) is the parent's to
    handle, and the parent's terminate() (SIGTERM) ends the worker at once."""
    import signal

    from conformance.runner.worker import die_with_parent

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    die_with_parent()


def _export_cell_task(task: tuple[tuple[str, str, int, str], int, int, Path]) -> CellExport:
    from conformance.registry import current_registry
    from conformance.suites.export_cases import export_cell

    (domain, op, since, dtype), draws, seed, out = task
    return export_cell(current_registry().op(domain, op).version(since), dtype, draws, seed, out)


def write_manifest(out: Path, result: Export, command: str, draws: int, seed: int, complete: bool = True) -> None:
    """manifest.json: the corpus's cases with their cells (sorted by name), what was left out, and whether the
    export went through (an interrupted one lists the cases written before it stopped)."""
    data = {"format": FORMAT, "command": command, "draws": draws, "seed": seed, "complete": complete,
            "cases": [c.as_json() for c in result.cases],
            "left_out": [{"label": x.label, "reason": x.reason, "detail": x.detail} for x in result.left_out]}
    (out / MANIFEST).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
