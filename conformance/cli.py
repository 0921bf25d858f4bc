"""`conform --backend X`: run the registry's conformance cells on a backend, report per cell.

    conform --backend onnxruntime --op 'Conv*' -n auto --report out.json --repro-dir repro/
    conform --backend onnxruntime --opsets 7-                                    # leave out pre-opset-7 versions
    conform --backend mymod:factory --replay repro/ai.onnx__Conv__v11__float     # re-run one failure
    conform --backend onnxruntime --shard 2/3 --report r2.json                   # the 2nd of 3 CI jobs
    conform merge r1.json r2.json r3.json --report all.json --junit all.xml      # their reports as one run's
    conform export corpus/ --op Conv      # the cases as files in onnx's backend test-data layout (suites/export.py)
    conform --backend onnxruntime --suite corpus/                                # run such a folder

One path: the options become one frozen `RunConfig`; the backend is resolved once into a `BackendHandle`; the cells
are planned once (`runner.plan`); each cell runs in `runner.core` (in this process, or in `-n N` worker processes)
and comes back as a `CellResult`, from which the report, the JUnit XML, the summary and the repro bundles are written.

Exit status: 0 when nothing failed, 1 when a cell failed (or a replayed case still fails, or an output could not be
written during the run), 2 on a usage error (unknown backend, a selection that matches nothing, unreadable
expectations, a bad --shard, --opsets or --timeout, an output path that cannot be written, a --suite folder without
cases), 130 / 143 when SIGINT / SIGTERM stopped it.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from opset.broken_pipe import ends_quietly_on_broken_pipe

if TYPE_CHECKING:  # the modules behind them are imported when a run needs them: `conform --help` stays quick
    from conformance.runner.config import RunConfig
    from conformance.runner.handle import BackendHandle
    from conformance.runner.plan import CellTask
    from conformance.runner.report import RunReport
    from opset.registry import Registry

DEFAULT_EXPECTATIONS = Path(__file__).resolve().parent / "expectations"


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
    from conformance.runner.config import add_cell_options

    commands = "".join(f"\n  conform {name} ...: {c.help}" for name, c in subcommands().items())
    p = argparse.ArgumentParser(prog="conform", description="Operator conformance of a backend against the registry.",
                                epilog=f"other commands (each takes --help):{commands}",
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    add_cell_options(p.add_argument, pytest=False, required_backend=True)
    p.add_argument("--suite", default="properties", metavar="properties|onnx-node|DIR",
                   help="properties: the registry's property tests and examples (default); onnx-node: the cases of "
                        "onnx's node test suite; DIR: a folder of cases in the ONNX backend test-data layout, such "
                        "as `conform export` writes (--op then also matches case names)")
    p.add_argument("--op", action="append", help="op name glob (repeatable, or comma-separated)")
    p.add_argument("--domain", action="append", help="registry domain (repeatable)")
    p.add_argument("--opset", type=int, help="only the versions an import of this opset resolves to (in each domain)")
    p.add_argument("--opsets", metavar="RANGES",
                   help="only the versions some import of an opset in these ranges resolves to: A-B, A-, -B or N, "
                        "comma-separated, each optionally DOMAIN=... (`7-` leaves out versions older than opset 7; "
                        "`ai.onnx=7-` only in ai.onnx)")
    p.add_argument("--seed", type=int, default=0, help="Hypothesis seed (default 0: runs are repeatable)")
    p.add_argument("-n", dest="workers", help="worker processes on this machine (a number or 'auto'; default: the "
                                              "cells run in conform's own process)")
    p.add_argument("--shard", help="K/N: run only the K-th of N disjoint parts of the cells (a CI matrix of N jobs; "
                                   "`conform merge` joins their reports)")
    p.add_argument("-v", "--verbose", action="store_true", help="a line per test, and each failing test's whole "
                                                                "account (traceback, Hypothesis' failing example), "
                                                                "instead of a progress bar")
    p.add_argument("--report", type=Path, help="JSON report, rewritten as results arrive")
    p.add_argument("--junit", type=Path, help="JUnit XML report, one test case per cell")
    p.add_argument("--replay", type=Path, help="re-run the one case of a repro bundle and exit")
    p.add_argument("--keep", type=Path, help="also write the selection's test modules here (what `gen tests` writes), "
                                             "to read or run with plain pytest")
    return p


@ends_quietly_on_broken_pipe
def main(argv: Sequence[str] | None = None) -> int:
    from conformance.signals import exit_code, signal_name, stopping_on_signals

    args = list(sys.argv[1:] if argv is None else argv)
    commands = subcommands()
    if args and args[0] in commands:
        command = commands[args[0]]
        return command.run(command.parser(args[0]).parse_args(args[1:]))
    options = build_parser().parse_args(args)
    with stopping_on_signals():
        try:
            return _conform(options)
        except KeyboardInterrupt as e:  # before the run started, or during a replay
            print(f"conform: interrupted ({signal_name(e)})", file=sys.stderr)
            return exit_code(e)


def _conform(options: argparse.Namespace) -> int:
    from conformance.backends.protocol import BackendError
    from conformance.registry import current_registry
    from conformance.runner.config import ConfigError, check_opsets
    from conformance.runner.expectations import ExpectationsError
    from conformance.runner.handle import resolve_handle
    from conformance.runner.outputs import OutputError
    from conformance.runner.run import run_tasks
    from opset.errors import RegistryError

    try:
        config = run_config(options)
        handle = resolve_handle(config.backend)
        if options.replay is not None:
            return _replay(options.replay, handle, config)
        _check_outputs(config)
        registry = current_registry()
        check_opsets(config.opsets, registry, "--opset" if options.opset is not None else "--opsets")
        config = _with_expectations(config, handle.identity)
        tasks, report, stale = plan(config, registry, handle.constant_inputs(config.constant_inputs))
    except RegistryError as e:
        print(f"conform: the registry does not load:\n{e}", file=sys.stderr)
        return 2
    except (ConfigError, BackendError, OutputError, ExpectationsError) as e:
        print(f"conform: {e}", file=sys.stderr)
        return 2
    return run_tasks(config, handle, tasks, report, stale)


def run_config(options: argparse.Namespace) -> RunConfig:
    """The RunConfig of a parsed command line; ConfigError for values no run can have."""
    from conformance.runner.config import (
        ONNX_NODE,
        PROPERTIES,
        ConfigError,
        RunConfig,
        check_numbers,
        namespace_values,
        parse_opsets,
        parse_workers,
        split_patterns,
    )
    from conformance.runner.shard import Shard, ShardError

    workers = parse_workers(options.workers, os.cpu_count())
    check_numbers(options.max_examples, options.timeout, workers)
    if options.shard is not None:
        try:
            Shard.from_spec(options.shard)
        except ShardError as e:
            raise ConfigError(str(e)) from None
    if options.opset is not None and options.opsets is not None:
        raise ConfigError("--opset N is --opsets N: give one of them")
    opsets = parse_opsets(options.opsets if options.opsets is not None else str(options.opset)) \
        if options.opsets is not None or options.opset is not None else ()
    suite = options.suite
    if suite not in (PROPERTIES, ONNX_NODE):
        if not Path(suite).is_dir():
            raise ConfigError(f"--suite {suite}: not properties, onnx-node or a folder of cases")
        suite = str(Path(suite).resolve())
    if options.keep is not None and suite != PROPERTIES:
        raise ConfigError("--keep writes the property suite's modules (what `gen tests` writes): not with --suite")
    expectations = options.expectations
    if expectations is not None and not expectations.is_file():
        raise ConfigError(f"expectations file {expectations} not found")
    values = namespace_values(options)
    return RunConfig(**{**values, "expectations": expectations.resolve() if expectations else None,
                        "repro_dir": options.repro_dir.resolve()},
                     suite=suite, seed=options.seed, verbose=options.verbose,
                     ops=split_patterns(options.op), domains=tuple(options.domain or ()), opsets=opsets,
                     shard=options.shard, report=options.report.resolve() if options.report else None,
                     junit=options.junit.resolve() if options.junit else None,
                     keep=options.keep.resolve() if options.keep else None, workers=workers)


def _check_outputs(config: RunConfig) -> None:
    """Every path the run will write, checked before it starts (OutputError: one line, exit 2)."""
    from conformance.runner.outputs import check_file, check_folder

    for path, option in ((config.report, "--report"), (config.junit, "--junit")):
        if path is not None:
            check_file(path, option)
    if config.repro_dir is not None:
        check_folder(config.repro_dir, "--repro-dir")
    if config.keep is not None:
        check_folder(config.keep, "--keep")


def _with_expectations(config: RunConfig, identity: str) -> RunConfig:
    """The config with its expectations file: the one given, else the backend's own when the project has one."""
    from dataclasses import replace

    if config.expectations is not None:
        return config
    default = DEFAULT_EXPECTATIONS / f"{identity}.yaml"
    return replace(config, expectations=default) if default.is_file() else config


def plan(config: RunConfig, registry: Registry, constant_inputs: str | None = None,
         ) -> tuple[list[CellTask], RunReport, list[str]]:
    """The cells the run has (after --op/--domain, --opsets, --shard), each with its listed gap; the empty report they
    will fill (stating `constant_inputs`, the inputs the backend gets as constants); the expectations that match no
    cell of the registry. ConfigError when nothing is selected."""
    from conformance.runner.cells import registry_cells
    from conformance.runner.config import ONNX_NODE, PROPERTIES, ConfigError, opset_filter
    from conformance.runner.expectations import load_expectations, unmatched
    from conformance.runner.plan import select
    from conformance.runner.report import RunReport

    if config.suite == PROPERTIES:
        tasks = _property_tasks(config, registry)
    elif config.suite == ONNX_NODE:
        tasks = _onnx_node_tasks(config)
    else:
        tasks = _folder_tasks(config)
    expectations = load_expectations(config.expectations) if config.expectations is not None else []
    keep = opset_filter(config.opsets, registry) if config.opsets else None
    selected = select(tasks, keep_version=keep, shard=config.shard, expectations=expectations)
    if not selected and config.opsets:
        raise ConfigError(f"no cell of the selection is in {'/'.join(str(r) for r in config.opsets)}")
    report = RunReport(backend=config.backend, shard=config.shard,
                       expectations=str(config.expectations) if config.expectations is not None else None,
                       constant_inputs=constant_inputs)
    stale = [f"{e.describe()}: {e.reason}" for e in unmatched(expectations, registry_cells())] if expectations else []
    return selected, report, stale


def _property_tasks(config: RunConfig, registry: Registry) -> list[CellTask]:
    from conformance.runner.config import ConfigError
    from conformance.runner.plan import property_tasks
    from conformance.test_modules.generator import generate, resolvable_versions, select_ops

    selected = select_ops(registry, list(config.ops), list(config.domains))
    ops = [op for op in selected if resolvable_versions(op)]
    removed = sorted(f"{op.domain}::{op.name}" for op in selected if not resolvable_versions(op))
    if removed:  # they resolve in no opset, so no model can use them: nothing to run
        print(f"conform: not run, removed from every opset: {', '.join(removed)}")
    if not ops:
        raise ConfigError("no op matches the selection")
    if config.keep is not None:
        generate(config.keep, ops)
    return property_tasks(ops)


def _onnx_node_tasks(config: RunConfig) -> list[CellTask]:
    from conformance.runner.config import ConfigError
    from conformance.runner.plan import CellTestKind, suite_tasks
    from conformance.suites.onnx_node import suite_cases

    cases = [c for c in suite_cases(list(config.ops)) if not config.domains or c.domain in config.domains]
    if not cases:
        raise ConfigError("no onnx node-suite case matches the selection")
    return suite_tasks((((c.domain, c.op, c.since, c.dtype), c.name) for c in cases), CellTestKind.ONNX_NODE)


def _folder_tasks(config: RunConfig) -> list[CellTask]:
    from conformance.runner.config import ConfigError
    from conformance.runner.plan import CellTestKind, suite_tasks
    from conformance.suites.folder import FolderError, folder_cases

    root = Path(config.suite)
    try:
        cases = folder_cases(root, list(config.ops), list(config.domains))
    except FolderError as e:
        raise ConfigError(f"--suite {e}") from e
    if not cases:
        raise ConfigError(f"no case of {root} matches the selection")
    return suite_tasks((((c.domain, c.op, c.since, c.dtype), c.name) for c in cases), CellTestKind.FOLDER)


def _replay(bundle: Path, handle: BackendHandle, config: RunConfig) -> int:
    from conformance.runner.config import ConfigError
    from conformance.runner.replay import replay

    if not (bundle / "case.json").is_file():
        raise ConfigError(f"{bundle} is not a repro bundle (no case.json)")
    return replay(bundle, handle, config.timeout, config.constant_inputs)


if __name__ == "__main__":
    sys.exit(main())
