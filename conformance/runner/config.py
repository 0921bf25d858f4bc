"""What one conform run is asked to do: a frozen `RunConfig`, built once by the CLI and handed as it is to every
process that runs cells (`conformance.runner.pool`), and the opset selection of `--opset` / `--opsets`.

The options that shape how a cell runs are declared once (`CELL_OPTIONS`): the CLI adds them to its parser, and the
pytest plugin of `gen tests`' modules adds the same ones (prefixed `--conform-` where pytest's namespace is shared,
`--backend` as it is), so neither front end forwards options to the other.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from conformance.constant_inputs import CONSTANT_INPUT_MODES

if TYPE_CHECKING:  # `conform --help` builds the parser without loading the registry, numpy or onnx
    from opset.model import OpSchema, OpVersion
    from opset.registry import Registry

DEFAULT_REPRO_DIR = Path("conform-repro")  # below the current folder, written only when a cell fails
PROPERTIES, ONNX_NODE = "properties", "onnx-node"  # the built-in suites; anything else names a folder of cases


class ConfigError(ValueError):
    """An option value conform cannot run with; the message is the one line a user sees (exit 2)."""


@dataclass(frozen=True, slots=True)
class OpsetRange:
    """`[DOMAIN=]A-B`, `A-`, `-B` or `N` of `--opsets`: the op versions some import of an opset in [low, high] of
    `domain` (every domain when None) resolves to."""

    domain: str | None
    low: int | None
    high: int | None

    def __str__(self) -> str:
        where = f"{self.domain}=" if self.domain else ""
        if self.low == self.high and self.low is not None:
            return f"{where}{self.low}"
        return f"{where}{self.low if self.low is not None else ''}-{self.high if self.high is not None else ''}"

    def holds(self, start: int, end: int | None) -> bool:
        """Whether opsets `start` (inclusive) to `end` (exclusive; None: every later one) meet this range."""
        below_high = self.high is None or start <= self.high
        above_low = self.low is None or end is None or end > self.low
        return below_high and above_low


_RANGE = re.compile(r"(?:(?P<domain>[A-Za-z][\w.]*)=)?(?P<low>\d+)?(?P<dash>-)?(?P<high>\d+)?")


def parse_opsets(text: str) -> tuple[OpsetRange, ...]:
    """`7-`, `1-6,13`, `ai.onnx=7-,ai.onnx.ml=3` as ranges; ConfigError with a one-line reason otherwise."""
    ranges = []
    for item in (part.strip() for part in text.split(",")):
        match = _RANGE.fullmatch(item)
        if not item or match is None or (match["low"] is None and match["high"] is None):
            raise ConfigError(f"--opsets takes ranges A-B, A-, -B or N (optionally DOMAIN=...), comma-separated, "
                              f"not '{item or text}'")
        low = int(match["low"]) if match["low"] is not None else None
        high = int(match["high"]) if match["high"] is not None else None
        if match["dash"] is None:
            high = low
        if low is not None and high is not None and low > high:
            raise ConfigError(f"--opsets {item}: {low} is above {high}")
        ranges.append(OpsetRange(match["domain"], low, high))
    return tuple(ranges)


def check_opsets(ranges: Sequence[OpsetRange], registry: Registry, flag: str) -> None:
    """ConfigError for a range of an unknown domain or one starting past the newest opset the registry knows of its
    domain (of any domain when it names none)."""
    for r in ranges:
        if r.domain is not None and r.domain not in registry.domains:
            raise ConfigError(f"{flag} {r}: no domain '{r.domain}' in the registry "
                              f"({', '.join(sorted(registry.domains))})")
        domains = [registry.domains[r.domain]] if r.domain else list(registry.domains.values())
        newest = max(domains, key=lambda d: d.max_opset)
        low = r.low if r.low is not None else r.high
        if low is not None and low > newest.max_opset:
            raise ConfigError(f"{flag} {r}: beyond every opset the registry knows (the newest is {newest.name} "
                              f"{newest.max_opset})")
        if low is not None and low < 1:
            raise ConfigError(f"{flag} {r}: opsets count from 1")


def version_span(op: OpSchema, version: OpVersion) -> tuple[int, int | None]:
    """The opsets of its domain an import of which resolves to `version`: from its `since` up to (excluding) the next
    version's or the op's removal; None when no later opset leaves it."""
    later = [v.since for v in op.versions if v.since > version.since]
    ends = [min(later)] if later else []
    if op.status.state == "removed" and op.status.removed_at_opset is not None:
        ends.append(op.status.removed_at_opset)
    return version.since, min(ends) if ends else None


def opset_filter(ranges: Sequence[OpsetRange], registry: Registry) -> Callable[[str, str, int], bool]:
    """Whether the cell's version (domain, op, since) is kept: every range naming its domain, or naming none, that
    applies is met by one of them; a domain no range applies to keeps every version."""

    def keep(domain: str, op: str, since: int) -> bool:
        applying = [r for r in ranges if r.domain in (None, domain)]
        if not applying or (domain, op) not in registry.ops:
            return True
        schema = registry.ops[(domain, op)]
        version = next((v for v in schema.versions if v.since == since), None)
        if version is None:
            return True
        start, end = version_span(schema, version)
        return any(r.holds(start, end) for r in applying)

    return keep


@dataclass(frozen=True, slots=True)
class RunConfig:
    """One run of conform, as the command line asked for it. It travels unchanged from the CLI to the processes
    that run cells; paths are absolute (a worker's current folder is not the user's)."""

    backend: str  # as named on the command line (`reference`, `mymod:factory`, `path.py`): also the replay command's
    suite: str = PROPERTIES  # properties | onnx-node | an absolute folder of cases
    max_examples: int = 25
    seed: int = 0
    timeout: float = 20.0
    shrink: bool = False
    repro_dir: Path | None = None  # None: no repro bundles (a plain pytest run without --conform-repro-dir)
    verbose: bool = False
    ops: tuple[str, ...] = ()  # name globs
    domains: tuple[str, ...] = ()
    opsets: tuple[OpsetRange, ...] = ()
    shard: str | None = None  # K/N
    expectations: Path | None = None
    report: Path | None = None
    junit: Path | None = None
    keep: Path | None = None
    workers: int = 1  # processes running cells; 0 or 1 runs them in conform's own process
    # which inputs reach the backend as constants, by their registry role (`--constant-inputs`): auto (the backend's
    # own `constant_inputs` attribute, else none), none, params, all
    constant_inputs: str = "auto"


@dataclass(frozen=True, slots=True)
class CellOption:
    """An option that shapes how a cell runs, declared once for both front ends."""

    dest: str
    flag: str  # conform's spelling
    pytest_flag: str  # the plugin's spelling
    kind: type
    default: Any
    help: str
    pytest_default: Any = None  # the plugin's default where it differs (no repro bundles unless asked)
    differs_in_pytest: bool = False
    choices: tuple[str, ...] = ()  # the values it takes, where they are a fixed few


CELL_OPTIONS: tuple[CellOption, ...] = (
    CellOption("backend", "--backend", "--backend", str, None,
               "reference | onnxruntime | onnx-reference | openvino | tract | onnx2torch | module[:factory] | "
               "file.py[:factory] | an onnx.backend module (onnxruntime.backend)"),
    CellOption("max_examples", "--max-examples", "--conform-max-examples", int, 25,
               "Hypothesis examples per cell (default 25)"),
    CellOption("timeout", "--timeout", "--conform-timeout", float, 20.0,
               "seconds a backend may take per case (default 20; more than 0)"),
    CellOption("shrink", "--shrink", "--conform-shrink", bool, False,
               "let Hypothesis shrink failing cases (slower)"),
    CellOption("expectations", "--expectations", "--conform-expectations", Path, None,
               "YAML of known gaps (default: conformance/expectations/<the backend's name>.yaml when it exists)"),
    CellOption("repro_dir", "--repro-dir", "--conform-repro-dir", Path, DEFAULT_REPRO_DIR,
               f"write a repro bundle per failing cell here (default: {DEFAULT_REPRO_DIR}/, made only when a cell "
               "fails; with pytest: none unless given)", pytest_default=None, differs_in_pytest=True),
    CellOption("constant_inputs", "--constant-inputs", "--conform-constant-inputs", str, "auto",
               "which inputs the backend gets as constants (initializers of the one-node model) by their registry "
               "role: params (shape-like parameters), all (parameters and weights), none; auto (default): what the "
               "backend's own `constant_inputs` says, else none", choices=CONSTANT_INPUT_MODES),
)


def add_cell_options(add: Callable[..., Any], *, pytest: bool, required_backend: bool) -> None:
    """Declare CELL_OPTIONS through `add` (argparse's `add_argument` or a pytest group's `addoption`)."""
    for option in CELL_OPTIONS:
        flag = option.pytest_flag if pytest else option.flag
        if option.kind is bool:
            add(flag, dest=option.dest if not pytest else _pytest_dest(option), action="store_true", help=option.help)
            continue
        default = option.pytest_default if pytest and option.differs_in_pytest else option.default
        kwargs: dict[str, Any] = {"type": option.kind if not pytest or option.kind is not Path else str,
                                  "default": default, "help": option.help}
        if option.choices:
            kwargs["choices"] = option.choices
        if pytest:
            kwargs["dest"] = _pytest_dest(option)
        elif option.dest == "backend":
            kwargs["required"] = required_backend
        add(flag, **kwargs)


def _pytest_dest(option: CellOption) -> str:
    return option.pytest_flag.lstrip("-").replace("-", "_")


def values_from_pytest(getoption: Callable[[str], Any]) -> dict[str, Any]:
    """CELL_OPTIONS' values as a pytest config holds them, by RunConfig field."""
    return {o.dest: getoption(_pytest_dest(o)) for o in CELL_OPTIONS}


def check_numbers(max_examples: int, timeout: float, workers: int | None = None) -> None:
    """ConfigError for values no run can have."""
    if max_examples < 1:
        raise ConfigError("--max-examples must be >= 1")
    if not timeout > 0:  # also NaN
        raise ConfigError(f"--timeout must be more than 0 seconds, not {timeout:g}")
    if workers is not None and workers < 0:
        raise ConfigError("-n takes a count of worker processes (0 or 1: none, the cells run in conform's own "
                          "process) or 'auto'")


def parse_workers(text: str | None, cpu_count: int | None) -> int:
    """`-n N` or `-n auto` as a count of processes (1 without -n)."""
    if text is None:
        return 1
    if text == "auto":
        return max(1, cpu_count or 1)
    try:
        return int(text)
    except ValueError:
        raise ConfigError(f"-n takes a number or 'auto', not '{text}'") from None


def split_patterns(values: Iterable[str] | None) -> tuple[str, ...]:
    return tuple(p.strip() for v in values or () for p in v.split(",") if p.strip())


def in_selection(domain: str, op: str, patterns: Sequence[str], domains: Sequence[str]) -> bool:
    """conform's selection (`--op` globs, `--domain` names; all when none are given) holds `domain::op`."""
    import fnmatch

    return ((not patterns or any(fnmatch.fnmatchcase(op, p) for p in patterns))
            and (not domains or domain in domains))


def namespace_values(options: argparse.Namespace) -> dict[str, Any]:
    """The CELL_OPTIONS' values of a parsed conform command line, by RunConfig field."""
    return {o.dest: getattr(options, o.dest) for o in CELL_OPTIONS}
