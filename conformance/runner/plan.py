"""Which cells a run has and what each one runs: the plan the CLI makes once, before any case is drawn.

A cell (an op version and an element type) holds tests (`CellTest`): for the registry's property tests, its drawn
cases, one law case when the version's outputs are drawn at random, and the YAML examples of that element type, or
a report that numpy cannot hold the type; for a suite (onnx's node suite, a folder of cases), the suite's cases that
report under it. The same cells and tests as the modules `gen tests` writes, in the same order, so both ways of
running them give the same report. `--shard`, `--opset(s)` and the expectations are applied here, in the one
process that plans.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from conformance.runner.expectations import Expectation, expectation_for
from conformance.runner.results import Cell, cell_key
from opset.model import OpSchema


class CellTestKind(Enum):
    PROPERTIES = "properties"  # drawn cases, one Hypothesis run
    LAW = "law case"  # one large drawn case whose random outputs are tested against their law
    EXAMPLE = "example"  # a YAML example (name: the example's)
    ELEMENT_TYPE = "element type"  # a type numpy cannot hold: reported unsupported
    ONNX_NODE = "onnx-node case"  # a case of onnx's node test suite (name: the case's)
    FOLDER = "folder case"  # a case folder of `--suite DIR` (name: its path below DIR)


@dataclass(frozen=True, slots=True)
class CellTest:
    kind: CellTestKind
    name: str = ""

    def __str__(self) -> str:
        return f"{self.kind.value} {self.name}" if self.name else self.kind.value


@dataclass(frozen=True, slots=True)
class CellTask:
    """A cell to run: its tests, and the listed gap (expectations file) that covers it, if any."""

    cell: Cell
    tests: tuple[CellTest, ...]
    expectation: Expectation | None = None

    @property
    def label(self) -> str:
        return cell_key(*self.cell)


_PROPERTIES, _LAW, _ELEMENT_TYPE = (CellTest(CellTestKind.PROPERTIES), CellTest(CellTestKind.LAW),
                                   CellTest(CellTestKind.ELEMENT_TYPE))


def property_tasks(ops: Iterable[OpSchema]) -> list[CellTask]:
    """The cells of `ops` and their tests, as `gen tests`' modules hold them."""
    from conformance.test_modules.generator import resolvable_versions as versions
    from opset.cells import cell_dtypes, example_dtype

    tasks: list[CellTask] = []
    for op in ops:
        tests: dict[Cell, list[CellTest]] = {}
        for version in versions(op):
            drawable, other = cell_dtypes(version)
            for dtype in drawable:
                tests.setdefault((op.domain, op.name, version.since, dtype), []).append(_PROPERTIES)
            if version.random is not None:
                for dtype in drawable:
                    tests[(op.domain, op.name, version.since, dtype)].append(_LAW)
            for dtype in other:
                tests.setdefault((op.domain, op.name, version.since, dtype), []).append(_ELEMENT_TYPE)
            for example in version.examples:
                cell = (op.domain, op.name, version.since, example_dtype(version, example))
                tests.setdefault(cell, []).append(CellTest(CellTestKind.EXAMPLE, example.name))
        tasks += [CellTask(cell, tuple(specs)) for cell, specs in tests.items()]
    return tasks


def suite_tasks(cases: Iterable[tuple[Cell, str]], kind: CellTestKind) -> list[CellTask]:
    """A suite's cases (each with the cell it reports under) grouped by cell, in the suite's order."""
    tests: dict[Cell, list[CellTest]] = {}
    for cell, name in cases:
        tests.setdefault(cell, []).append(CellTest(kind, name))
    return [CellTask(cell, tuple(specs)) for cell, specs in tests.items()]


def select(tasks: Sequence[CellTask], *, keep_version: Callable[[str, str, int], bool] | None = None,
           shard: str | None = None, expectations: Sequence[Expectation] = ()) -> list[CellTask]:
    """The tasks of the versions `keep_version` keeps and of the shard `K/N`, each with its listed gap."""
    from conformance.runner.shard import Shard

    part = Shard.from_spec(shard) if shard else None
    kept = []
    for task in tasks:
        domain, op, since, _ = task.cell
        if keep_version is not None and not keep_version(domain, op, since):
            continue
        if part is not None and not part.holds(task.label):
            continue
        kept.append(CellTask(task.cell, task.tests, expectation_for(task.cell, expectations)))
    return kept
