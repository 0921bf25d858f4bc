"""The one core that runs a cell's tests on a backend and gives back data: `CellRunner.run(task) -> CellResult`.

conform calls it for every cell (in its own process, or in each worker process of `-n N`), and so do the modules
`gen tests` writes, through the pytest plugin (`conformance.runner.plugin`): both draw the same cases. A cell's drawn
cases are one Hypothesis run seeded with the run's seed (`@seed(S)`: each test starts from `Random(S)`, as pytest's
`--hypothesis-seed=S` made it), with the settings of `hypothesis_settings`, and no constant of the local source
mixed into the draws (`strategies.repeatable`).
"""

from __future__ import annotations

import traceback
import warnings
from dataclasses import dataclass
from typing import Any

from hypothesis import HealthCheck, Phase, given, reject, seed, settings
from hypothesis import strategies as st

from conformance.backends.protocol import Unsupported
from conformance.runner.checks import ConformanceFailure, InvalidCase, check_case
from conformance.runner.config import RunConfig
from conformance.runner.expectations import Expectation
from conformance.runner.handle import BackendHandle, CaseBackend, close_cases, open_cases
from conformance.runner.messages import exception_text
from conformance.runner.plan import CellTask, CellTest, CellTestKind
from conformance.runner.random_laws import law_case
from conformance.runner.results import Cell, CellResult, Failure, Outcome, cell_key
from conformance.runner.settings import CellStats, CheckSettings, RecentCases
from conformance.strategies.repeatable import draw_without_local_constants
from opset.model import OpVersion

LAW_ATTEMPTS = 40  # draws per example before a law test's example is rejected (`draw_law_case`)


@dataclass(frozen=True, slots=True)
class CellRun:
    """A cell's record and the outcomes of its tests (what `-v` prints; a repro bundle that could not be written)."""

    result: CellResult
    outcomes: tuple[Outcome, ...]

    @property
    def write_error(self) -> str | None:
        return next((o.write_error for o in self.outcomes if o.write_error), None)


def lost_cell(task: CellTask, how: str) -> CellRun:
    """The run of a cell whose worker process died under it (`how`: killed by SIGSEGV, exit code 1 ...)."""
    what = f"conform's worker process died while running this cell ({how})"
    entry = task.expectation
    reason = entry.reason if entry is not None else None
    outcome = Outcome("cell", "xfail" if entry else "fail", entry.message if entry else f"{task.label}: {what}",
                      failure=Failure(what))
    return CellRun(CellResult.of(task.cell, [outcome], reason), (outcome,))


class CellUnsupported(Exception):
    """The test cannot run on this backend (or at all: no reference kernel, no numpy type); `reason` says why
    without the cell's label."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def hypothesis_settings(max_examples: int, shrink: bool) -> settings:
    """The settings of a cell's Hypothesis run, from Hypothesis' own defaults (not a profile a caller loaded)."""
    phases = [Phase.explicit, Phase.reuse, Phase.generate] + ([Phase.shrink] if shrink else [])
    # shrinking re-runs the backend many times; for crashes and hangs that costs a timeout per run
    return settings(settings.get_profile("default"), max_examples=max_examples, deadline=None, database=None,
                    phases=phases, report_multiple_bugs=False, print_blob=False,
                    suppress_health_check=[HealthCheck.differing_executors])


def draw_law_case(strategy: st.SearchStrategy[Any], data: st.DataObject) -> Any:
    """A law case drawn within one example: drawn cases whose law is certain or standard (scale 0, Dropout in
    inference or at ratio 0.5) are redrawn up to LAW_ATTEMPTS times. Some cells draw a telling case once in twelve
    (Dropout: training on, a ratio of 0.25 or 0.75, non-zero data); redrawn per example, Hypothesis' own filter
    (50 rejected examples fail the cell's health check) is never the one that gives up."""
    for _ in range(LAW_ATTEMPTS):
        case = law_case(data.draw(strategy, label="case"))
        if case is not None:
            return case
    reject()  # no telling case in LAW_ATTEMPTS draws: Hypothesis draws another example


class CellRunner:
    """Runs cells of one run (`config`) on its backend, opened in this process on first use (`handle`: the
    resolved backend of this process, when the caller has it)."""

    def __init__(self, config: RunConfig, handle: BackendHandle | None = None) -> None:
        self.config = config
        self._handle = handle
        self._backend: CaseBackend | None = None
        self._strategies: dict[Cell, st.SearchStrategy[Any]] = {}  # building one is costly: one per cell
        self._recent = RecentCases()
        draw_without_local_constants()  # the same --seed draws the same cases wherever conform runs

    @property
    def backend(self) -> CaseBackend:
        if self._backend is None:
            self._backend = open_cases(self.config.backend, timeout=self.config.timeout, handle=self._handle)
        return self._backend

    def close(self) -> None:
        """End the backend's isolation worker, if one was started."""
        backend, self._backend = self._backend, None
        if backend is not None:
            close_cases(backend)

    def run(self, task: CellTask) -> CellRun:
        """Every test of the cell, in order; the cell's record and its tests' outcomes."""
        entry = task.expectation
        outcomes = tuple(self.run_test(task.cell, test, entry) for test in task.tests)
        return CellRun(CellResult.of(task.cell, outcomes, entry.reason if entry is not None else None), outcomes)

    def run_test(self, cell: Cell, test: CellTest, expected: Expectation | None = None) -> Outcome:
        """One test of `cell` as an outcome; `expected` is the listed gap that covers the cell (its failure is then
        "xfail", its pass "xpass", and it writes no repro bundle)."""
        stats = CellStats()
        check = CheckSettings(spec=self.config.backend, repro_dir=None if expected else self.config.repro_dir,
                              timeout=self.config.timeout, stats=stats, recent=self._recent,
                              constant_inputs=self.config.constant_inputs)
        failure, detail, message, reason = None, "", "", ""
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # numpy's overflow warnings of drawn values, Hypothesis' notes
                self._run_body(cell, test, check)
            status = "pass"
            if stats.unsupported_draws and not stats.ran:  # every draw declined: the cell was not tested at all
                status, reason = "unsupported", _without_label(stats.unsupported_reason or "", cell)
        except CellUnsupported as e:
            status, reason = "unsupported", _without_label(e.reason, cell)
        except Exception as e:  # the test's failure: a backend's wrong answer, an error of any kind
            status = "fail"
            failure = e.failure if isinstance(e, ConformanceFailure) else None
            message = str(e) if isinstance(e, ConformanceFailure) else exception_text(e)
            detail = "".join(traceback.format_exception(e)) if self.config.verbose else ""
        if status == "unsupported":
            message = f"unsupported: {reason}"
        elif expected is not None:
            status = {"pass": "xpass", "fail": "xfail"}[status]
            message = expected.message
        return Outcome(str(test), status, message, reason=reason, examples=stats.examples,
                       unsupported_draws=stats.unsupported_draws, unsupported_reason=stats.unsupported_reason,
                       max_abs=stats.max_abs, max_rel=stats.max_rel, max_ulp=stats.max_ulp, repro=stats.repro,
                       ambiguous=tuple(stats.ambiguous), law_test=stats.law_test, failure=failure, detail=detail,
                       write_error=stats.write_error)

    def _run_body(self, cell: Cell, test: CellTest, check: CheckSettings) -> None:
        domain, op, since, dtype = cell
        kind = test.kind
        if kind is CellTestKind.ELEMENT_TYPE:
            raise CellUnsupported(f"{cell_key(*cell)}: numpy and the reference kernels have no {dtype}")
        if kind is CellTestKind.ONNX_NODE:
            from conformance.models.runner import NodeUnsupported
            from conformance.suites.onnx_node import check_suite_case

            try:
                check_suite_case(test.name, self.backend, check)
            except (Unsupported, NodeUnsupported) as e:
                raise CellUnsupported(str(e)) from e
            return
        if kind is CellTestKind.FOLDER:
            from conformance.models.runner import NodeUnsupported
            from conformance.suites.folder import check_folder_case

            try:
                check_folder_case(self.config.suite, test.name, self.backend, check)
            except (Unsupported, NodeUnsupported) as e:
                raise CellUnsupported(str(e)) from e
            return
        version = _version(domain, op, since)
        if kind is CellTestKind.EXAMPLE:
            self._example(version, test.name, check)
            return
        _refuse_without_reference(cell)
        self._drawn(cell, version, check, law=kind is CellTestKind.LAW)

    def _drawn(self, cell: Cell, version: OpVersion, check: CheckSettings, *, law: bool) -> None:
        """The cell's drawn cases (its law case when `law`), one Hypothesis run."""
        if cell not in self._strategies:
            from conformance.strategies.cases import op_cases

            self._strategies[cell] = op_cases(version, cell[3])
        strategy = self._strategies[cell]
        backend = self.backend

        @seed(self.config.seed)
        @hypothesis_settings(1 if law else self.config.max_examples, self.config.shrink)
        @given(data=st.data())
        def drawn_cases(data: st.DataObject) -> None:
            case = draw_law_case(strategy, data) if law else data.draw(strategy, label="case")
            try:
                check_case(case, backend, check, None, law=law)
            except Unsupported as e:  # this draw is passed over; the cell's other draws still run
                check.stats.unsupported(str(e))
            except InvalidCase as e:
                raise ConformanceFailure(str(e)) from e

        drawn_cases()

    def _example(self, version: OpVersion, name: str, check: CheckSettings) -> None:
        """The YAML example `name` of the version, checked against the outputs it states."""
        from conformance.strategies.examples import example_case

        example = next((e for e in version.examples if e.name == name), None)
        if example is None:
            raise LookupError(f"{version.signature} has no example '{name}'")
        case, expected = example_case(version, example)
        try:
            check_case(case, self.backend, check, expected)
        except Unsupported as e:
            raise CellUnsupported(str(e)) from e
        except InvalidCase as e:
            raise ConformanceFailure(str(e)) from e


def _version(domain: str, op: str, since: int) -> OpVersion:
    from conformance.registry import current_registry

    return current_registry().op(domain, op).version(since)


def _refuse_without_reference(cell: Cell) -> None:
    """A cell of an op the reference states it has no kernel for is unsupported before anything is drawn: no
    expected outputs can be computed for it, and its cases may not even be drawable (a whole decoding loop's
    subgraphs)."""
    from conformance.kernels import no_reference_kernel

    why = no_reference_kernel(cell[0], cell[1])
    if why is not None:
        raise CellUnsupported(f"no reference kernel for {cell_key(*cell)}: {why}")


def _without_label(reason: str, cell: Cell) -> str:
    """`reason` without the cell's or its version's label where it starts with one (`ai.onnx@11::Conv[float]: ...`),
    so that cells unsupported for one reason share its text."""
    label = cell_key(*cell)
    version = label.rsplit("[", 1)[0]
    for prefix in (f"{label}: ", f"{version}: "):
        if reason.startswith(prefix):
            return reason[len(prefix):]
    if reason.startswith("no reference kernel for "):
        return "no reference kernel: " + reason.split("]: ", 1)[-1]
    return reason
