"""`conform --backend X`: generate the property-test modules, run them under pytest, report per cell.

    conform --backend onnxruntime --op 'Conv*' -n auto --report out.json --repro-dir repro/
    conform --backend mymod:factory --replay repro/ai.onnx__Conv__v11__float     # re-run one failure
    conform --backend onnxruntime --shard 2/3 --report r2.json                   # the 2nd of 3 CI jobs
    conform merge r1.json r2.json r3.json --report all.json --junit all.xml      # their reports as one run's
    conform export corpus/ --op Conv      # the cases as files in onnx's backend test-data layout (suites/export.py)
    conform --backend onnxruntime --suite corpus/                                # run such a folder

Without `-v` pytest's own output goes to a log and `conform` draws a progress bar over cells (plain lines when
stdout is not a terminal), then a table per op and one line per failing cell with the command that replays it.

Exit status: 0 when nothing failed, 1 when a cell failed (or a replayed case still fails), 2 on a usage
error (unknown backend, op selection that matches nothing, unreadable expectations, a bad --shard, a --suite folder
without cases).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from opset.broken_pipe import ends_quietly_on_broken_pipe

PROJECT_ROOT = Path(__file__).resolve().parent.parent  # the folder holding `conformance`: a checkout or site-packages
DEFAULT_EXPECTATIONS = Path(__file__).resolve().parent / "expectations"
DEFAULT_REPRO_DIR = Path("conform-repro")  # below the current folder, written only when a cell fails
LOG_TAIL_LINES = 40  # of pytest's log, shown when pytest stops for a reason of its own


@dataclass(frozen=True, slots=True)
class Subcommand:
    """A `conform NAME ...` command beside the default run (`conform --backend X ...`): its one-line help and the
    module that implements it, imported only when the command runs, with `add_arguments(parser)` and `run(options)`
    (an exit status)."""

    help: str
    module: str

    def parser(self, name: str) -> argparse.ArgumentParser:
        parser = argparse.ArgumentParser(prog=f"conform {name}", description=self.help)
        self._implementation().add_arguments(parser)
        return parser

    def run(self, options: argparse.Namespace) -> int:
        code: int = self._implementation().run(options)
        return code

    def _implementation(self) -> Any:
        return importlib.import_module(self.module)


def subcommands() -> dict[str, Subcommand]:
    """Every `conform NAME`; a new command is one entry here."""
    return {"merge": Subcommand("merge the JSON reports of `conform --shard K/N` runs into one run's report "
                                "(and JUnit XML)", "conformance.runner.merge"),
            "export": Subcommand("write the cases (examples and seeded draws per cell) as a corpus in onnx's backend "
                                 "test-data layout, for runners outside Python", "conformance.suites.export")}


def build_parser() -> argparse.ArgumentParser:
    commands = "".join(f"\n  conform {name} ...: {c.help}" for name, c in subcommands().items())
    p = argparse.ArgumentParser(prog="conform", description="Operator conformance of a backend against the registry.",
                                epilog=f"other commands (each takes --help):{commands}",
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--backend", required=True, help="reference | onnxruntime | onnx-reference | openvino | tract | "
                                                    "onnx2torch | module[:factory] | "
                                                    "file.py[:factory] | an onnx.backend module (onnxruntime.backend)")
    p.add_argument("--suite", default="properties", metavar="properties|onnx-node|DIR",
                   help="properties: the registry's property tests and examples (default); onnx-node: the cases of "
                        "onnx's node test suite; DIR: a folder of cases in the ONNX backend test-data layout, such "
                        "as `conform export` writes (--op then also matches case names)")
    p.add_argument("--op", action="append", help="op name glob (repeatable, or comma-separated)")
    p.add_argument("--domain", action="append", help="registry domain (repeatable)")
    p.add_argument("--opset", type=int, help="only the versions an import of this opset resolves to")
    p.add_argument("--max-examples", type=int, default=25, help="Hypothesis examples per cell (default 25)")
    p.add_argument("--seed", type=int, default=0, help="Hypothesis seed (default 0: runs are repeatable)")
    p.add_argument("-n", dest="workers", help="pytest-xdist workers on this machine (a number or 'auto')")
    p.add_argument("--shard", help="K/N: run only the K-th of N disjoint parts of the cells (a CI matrix of N jobs; "
                                   "`conform merge` joins their reports)")
    p.add_argument("-v", "--verbose", action="store_true", help="show pytest's own output (every test, tracebacks, "
                                                                "Hypothesis' failing examples) instead of a "
                                                                "progress bar")
    p.add_argument("--expectations", type=Path, help="YAML of known gaps (default: conformance/expectations/"
                                                     "<the backend's name>.yaml when it exists)")
    p.add_argument("--report", type=Path, help="JSON report, rewritten as results arrive")
    p.add_argument("--junit", type=Path, help="JUnit XML report, one test case per cell")
    p.add_argument("--repro-dir", type=Path, default=DEFAULT_REPRO_DIR,
                   help=f"write a repro bundle per failing cell here (default: {DEFAULT_REPRO_DIR}/)")
    p.add_argument("--timeout", type=float, default=20.0, help="seconds a backend may take per case (default 20)")
    p.add_argument("--constant-inputs", choices=("auto", "none", "params", "all"), default="auto",
                   help="which inputs the backend gets as constants (initializers of the one-node model) by their "
                        "registry role: params (shape-like parameters), all (parameters and weights), none; auto "
                        "(default): what the backend's own `constant_inputs` says, else none")
    p.add_argument("--shrink", action="store_true", help="let Hypothesis shrink failing cases (slower)")
    p.add_argument("--replay", type=Path, help="re-run the one case of a repro bundle and exit")
    p.add_argument("--keep", type=Path, help="write the generated test modules here instead of a temp dir")
    return p


@ends_quietly_on_broken_pipe
def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    commands = subcommands()
    if args and args[0] in commands:
        command = commands[args[0]]
        return command.run(command.parser(args[0]).parse_args(args[1:]))
    options = build_parser().parse_args(args)
    if options.max_examples < 1:
        print("conform: --max-examples must be >= 1", file=sys.stderr)
        return 2
    if options.shard is not None and not _shard_parses(options.shard):
        return 2
    if options.suite not in ("properties", "onnx-node") and not Path(options.suite).is_dir():
        print(f"conform: --suite {options.suite}: not properties, onnx-node or a folder of cases", file=sys.stderr)
        return 2
    if not _backend_resolves(options.backend):
        return 2
    if options.replay is not None:
        from conformance.runner.replay import replay

        if not (options.replay / "case.json").is_file():
            print(f"conform: {options.replay} is not a repro bundle (no case.json)", file=sys.stderr)
            return 2
        return replay(options.replay, options.backend, options.timeout, options.constant_inputs)
    return _run(options)


def _shard_parses(spec: str) -> bool:
    from conformance.runner.shard import Shard, ShardError

    try:
        Shard.from_spec(spec)
    except ShardError as e:
        print(f"conform: {e}", file=sys.stderr)
        return False
    return True


def _backend_resolves(spec: str) -> bool:
    from conformance.backends.protocol import BackendError
    from conformance.backends.resolve import resolve_backend

    try:
        resolve_backend(spec)
    except BackendError as e:
        print(f"conform: {e}", file=sys.stderr)
        return False
    return True


def _expectations(options: argparse.Namespace) -> Path | None:
    if options.expectations is not None:
        if not options.expectations.is_file():
            raise FileNotFoundError(f"expectations file {options.expectations} not found")
        return Path(options.expectations)
    from conformance.backends.resolve import backend_identity

    default = DEFAULT_EXPECTATIONS / f"{backend_identity(options.backend)}.yaml"
    return default if default.is_file() else None


def _run(options: argparse.Namespace) -> int:
    from conformance.test_modules.generator import generate, resolvable_versions, select_ops, split_patterns
    from opset.errors import RegistryError
    from opset.load import load_registry, schemas_dir

    try:
        registry = load_registry()
    except RegistryError as e:
        print(f"conform: the registry does not load:\n{e}", file=sys.stderr)
        return 2
    if options.suite == "onnx-node":
        return _run_onnx_node(options, split_patterns(options.op), schemas_dir())
    if options.suite != "properties":
        return _run_folder(options, split_patterns(options.op), schemas_dir())
    selected = select_ops(registry, split_patterns(options.op), options.domain or [])
    ops = [op for op in selected if resolvable_versions(op)]
    removed = sorted(f"{op.domain}::{op.name}" for op in selected if not resolvable_versions(op))
    if removed:  # they resolve in no opset, so no model can use them: nothing to run
        print(f"conform: not run, removed from every opset: {', '.join(removed)}")
    if not ops:
        print("conform: no op matches the selection", file=sys.stderr)
        return 2
    return _run_modules(options, schemas_dir(), lambda out: generate(out, ops))


def _run_onnx_node(options: argparse.Namespace, patterns: list[str], schemas: Path) -> int:
    from conformance.suites.onnx_node import suite_cases, write_module

    cases = suite_cases(patterns)
    if not cases:
        print("conform: no onnx node-suite case matches the selection", file=sys.stderr)
        return 2
    return _run_modules(options, schemas, lambda out: write_module(out, cases))


def _run_folder(options: argparse.Namespace, patterns: list[str], schemas: Path) -> int:
    from conformance.suites.folder import FolderError, folder_cases, write_module

    root = Path(options.suite)
    try:
        cases = folder_cases(root, patterns, options.domain or [])
    except FolderError as e:
        print(f"conform: --suite {e}", file=sys.stderr)
        return 2
    if not cases:
        print(f"conform: no case of {root} matches the selection", file=sys.stderr)
        return 2
    return _run_modules(options, schemas, lambda out: write_module(out, root, cases))


def _run_modules(options: argparse.Namespace, schemas: Path, write_tests: Callable[[Path], object]) -> int:
    """Write the test modules (`write_tests(folder)`), run them under pytest on a snapshot of the registry, and
    print the summary; the exit status of `conform`."""
    try:
        expectations = _expectations(options)
    except FileNotFoundError as e:
        print(f"conform: {e}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="conform-") as tmp:
        snapshot = Path(tmp) / "schemas"  # the run reads this copy, whatever happens to schemas/ meanwhile
        shutil.copytree(schemas, snapshot, ignore=shutil.ignore_patterns(".*"))
        out = options.keep or Path(tmp) / "tests"
        write_tests(out)
        (out / "pytest.ini").write_text("[pytest]\naddopts =\n", encoding="utf-8")
        report = (options.report or Path(tmp) / "report.json").resolve()
        events = Path(tmp) / "events"
        args = _pytest_args(options, out, report, expectations, events)
        started = time.monotonic()
        code = _run_pytest(args, snapshot, events if not options.verbose else None, Path(tmp) / "pytest.log")
        return _finish(options, report, code, time.monotonic() - started)


def _pytest_args(options: argparse.Namespace, out: Path, report: Path, expectations: Path | None,
                 events: Path) -> list[str]:
    # --assert=plain: the modules hold no assert, and pytest would rewrite every module of hypothesis (a plugin's
    # distribution) in each pytest process at every run where bytecode is not cached (PYTHONDONTWRITEBYTECODE)
    args = [str(out), "-p", "conformance.runner.plugin", "-p", "no:cacheprovider", "--no-header", "--assert=plain",
            "--rootdir", str(out), "--backend", options.backend,
            "--conform-max-examples", str(options.max_examples), "--conform-timeout", str(options.timeout),
            "--conform-report", str(report), f"--hypothesis-seed={options.seed}",
            "--conform-constant-inputs", options.constant_inputs,
            "--conform-repro-dir", str(options.repro_dir.resolve())]
    # quiet: pytest's output goes to a log shown only when pytest stops on its own; -v: pytest's whole output
    args += ["-v", "-rfE"] if options.verbose else ["-q", "--tb=line", "-rN", "--conform-events", str(events)]
    if options.workers:
        args += ["-n", str(options.workers)]
    if options.shard:
        args += ["--conform-shard", options.shard]
    if expectations is not None:
        args += ["--conform-expectations", str(expectations.resolve())]
    if options.opset is not None:
        args += ["--conform-opset", str(options.opset)]
    if options.shrink:
        args += ["--conform-shrink"]
    return args


def _run_pytest(args: list[str], snapshot: Path, events: Path | None, log: Path) -> int:
    """Run pytest on the modules; with `events`, its output goes to `log` and the progress is drawn from the events
    (the log's tail is printed when pytest stops for a reason of its own: a collection error, a crash)."""
    env = dict(os.environ)
    env["OPSET_SCHEMAS"] = str(snapshot)
    if not _on_sys_path(PROJECT_ROOT):  # a checkout run without an install; an installed wheel is importable already
        env["PYTHONPATH"] = os.pathsep.join([str(PROJECT_ROOT), *filter(None, [env.get("PYTHONPATH")])])
    command = [sys.executable, "-m", "pytest", *args]
    if events is None:
        process = subprocess.Popen(command, env=env)
        try:
            return process.wait()
        except KeyboardInterrupt:
            process.wait()  # pytest got the same SIGINT and writes what it has
            return 130
    from rich.console import Console

    from conformance.runner.progress import follow

    with log.open("wb") as sink:
        process = subprocess.Popen(command, env=env, stdout=sink, stderr=subprocess.STDOUT)
        try:
            code = follow(process, events, Console())
        except KeyboardInterrupt:
            process.wait()
            return 130
    if code not in (0, 1, 5):
        tail = log.read_text(encoding="utf-8", errors="replace").splitlines()[-LOG_TAIL_LINES:]
        print(f"conform: pytest stopped with status {code}; the end of its output:", *tail, sep="\n",
              file=sys.stderr)
    return code


def _on_sys_path(folder: Path) -> bool:
    """Whether `folder` is on this interpreter's import path (site-packages of an installed wheel, or a checkout put
    there), so the pytest child, the same interpreter, imports `conformance` from it without PYTHONPATH; putting
    site-packages on PYTHONPATH would move it ahead of the standard library."""
    return any(Path(entry or ".").resolve() == folder for entry in sys.path)


def _finish(options: argparse.Namespace, report: Path, code: int, elapsed: float) -> int:
    from conformance.runner.junit import write_junit
    from conformance.runner.report import summarize

    if not report.is_file():
        print(f"conform: pytest exited with status {code} before any result was recorded", file=sys.stderr)
        return 1 if code != 130 else 130
    data = json.loads(report.read_text(encoding="utf-8"))
    if options.junit:
        write_junit(data, options.junit)
    print()
    print(summarize(data))
    cells = data["cells"]
    failed = sum(c["status"] == "fail" for c in cells.values())
    shard = f" (shard {options.shard})" if options.shard else ""
    written = [f"{what}: {path}" for what, path in (("report", options.report), ("junit", options.junit)) if path]
    print(f"\n{len(cells)} cells{shard} in {elapsed:.1f} s, {failed} failed" + "".join(f"; {w}" for w in written))
    if failed and not options.verbose:
        print("conform -v shows pytest's whole output (Hypothesis' failing examples, tracebacks)")
    if code == 130:
        return 130
    if failed or code not in (0, 5):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
