"""What running a cell gives back, as data: one `Outcome` per test of the cell, folded into a `CellResult`.

A cell (`ai.onnx@11::Conv[float]`) has a few tests: its drawn cases (one Hypothesis run), its law case, its YAML
examples, or a suite's cases. The process that ran them sends the `CellResult` to the one that writes the outputs;
the JSON report, the JUnit XML, the summary and `conform merge` all read `CellResult`s (the report's entry of a cell
is `CellResult.as_json()`, read back by `CellResult.from_json`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from opset.model import op_label

Cell = tuple[str, str, int, str]  # (domain, op, since, dtype)

# every status a test or cell can have, worst first (`cell_status` says how a cell's tests make its status);
# "ambiguous": every case passed or followed another reading of the op
STATUS_ORDER = ("fail", "xpass", "ambiguous", "pass", "xfail", "unsupported")
MESSAGES_KEPT = 3  # a cell's report entry keeps its first three messages
REPORT_MESSAGE_LIMIT = 4000  # characters of one message in the report (a backend's own part is bounded to 2,000)


def cell_key(domain: str, op: str, since: int, dtype: str) -> str:
    """`ai.onnx@11::AveragePool[float]`: the project's one label of a cell (`opset.model.op_label`)."""
    return op_label(domain, op, since, dtype)


def cell_status(outcomes: Mapping[str, int]) -> str:
    """A cell's status from its tests' outcomes. A failure fails it. A cell with a listed gap is "xpass" only when
    every one of its tests passed (the gap is gone); one of its tests still failing as expected or declining to run
    (unsupported) keeps it "xfail". Otherwise the worst of "ambiguous", "pass", "unsupported" (a cell none of
    whose tests ran is unsupported)."""
    if outcomes.get("fail"):
        return "fail"
    if outcomes.get("xfail") or outcomes.get("xpass"):
        gap_shows = outcomes.get("xfail") or outcomes.get("unsupported")
        return "xfail" if gap_shows else "xpass"
    return next(s for s in STATUS_ORDER if outcomes.get(s))


@dataclass(frozen=True, slots=True)
class Failure:
    """One failing case: what differs, the case (inputs' shapes and types, attributes) and the command replaying
    it ("" without a bundle). `where` is "" for a drawn case, `(example e)` or `(law case)`."""

    what: str
    case: str = ""
    replay: str = ""
    where: str = ""

    def as_json(self) -> dict[str, str]:
        return {"what": self.what, "case": self.case, "replay": self.replay, "where": self.where}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Failure:
        return Failure(str(data.get("what", "")), str(data.get("case", "")), str(data.get("replay", "")),
                       str(data.get("where", "")))


@dataclass(frozen=True, slots=True)
class Outcome:
    """One test of a cell as it ended. `status` is the test's: pass, fail, unsupported, or with a listed gap xfail /
    xpass (an all-passing test that met another reading of the op is "ambiguous" in the cell's outcomes)."""

    test: str  # "properties", "law case", "example <name>", "case <name>", "element type"
    status: str
    message: str = ""
    reason: str = ""  # an unsupported test's reason without the cell's label (the summary groups cells by it)
    examples: int = 0  # cases that ran and passed
    unsupported_draws: int = 0  # drawn cases the backend declined, passed over one by one
    unsupported_reason: str | None = None  # the first declined draw's reason
    max_abs: float = 0.0
    max_rel: float = 0.0
    max_ulp: float = 0.0
    repro: str | None = None  # the last repro bundle written
    ambiguous: tuple[str, ...] = ()  # cases that follow another reading of the op
    law_test: dict[str, Any] | None = None
    failure: Failure | None = None
    detail: str = ""  # the whole failure (traceback, Hypothesis' failing example) for `-v`
    write_error: str | None = None  # a repro bundle that could not be written: the run stops on it


@dataclass(frozen=True, slots=True)
class CellResult:
    """A cell's record: its status and counts over its tests, as the report's entry of the cell holds them."""

    domain: str
    op: str
    version: int
    dtype: str
    status: str
    tests: int = 0
    outcomes: Mapping[str, int] = field(default_factory=dict)
    examples: int = 0
    unsupported_draws: int = 0
    unsupported_reason: str | None = None
    max_abs: float = 0.0
    max_rel: float = 0.0
    max_ulp: float = 0.0
    messages: tuple[str, ...] = ()
    repro: str | None = None
    ambiguous: int = 0
    law_test: dict[str, Any] | None = None
    failures: tuple[Failure, ...] = ()
    expected: str | None = None  # the listed gap's reason, for a cell the expectations name

    @property
    def label(self) -> str:
        return cell_key(self.domain, self.op, self.version, self.dtype)

    @property
    def cell(self) -> Cell:
        return (self.domain, self.op, self.version, self.dtype)

    @staticmethod
    def of(cell: Cell, outcomes: Sequence[Outcome], expected: str | None = None) -> CellResult:
        """The record of `cell` after its tests `outcomes`, in the order they ran."""
        domain, op, since, dtype = cell
        result = CellResult(domain, op, since, dtype, status="unsupported", expected=expected)
        for outcome in outcomes:
            result = result.add(outcome)
        return result

    def add(self, outcome: Outcome) -> CellResult:
        """This record with one more test's outcome folded in."""
        status, message = outcome.status, outcome.message
        if outcome.ambiguous and status == "pass":
            status, message = "ambiguous", outcome.ambiguous[0]
        outcomes = dict(self.outcomes)
        outcomes[status] = outcomes.get(status, 0) + 1  # per test: a cell holds several
        messages = self.messages
        if message and status in ("fail", "unsupported", "xfail", "xpass", "ambiguous"):
            messages = (*messages, _bounded(message))[:MESSAGES_KEPT]
        failures = self.failures
        if outcome.failure is not None:
            failures = (*failures, outcome.failure)[:MESSAGES_KEPT]
        reason = self.unsupported_reason or (outcome.reason if status == "unsupported" else None) \
            or outcome.unsupported_reason
        return replace(self, status=cell_status(outcomes), tests=self.tests + 1, outcomes=outcomes,
                       examples=self.examples + outcome.examples,
                       unsupported_draws=self.unsupported_draws + outcome.unsupported_draws,
                       unsupported_reason=_bounded(reason, 500) if reason else None,
                       max_abs=max(self.max_abs, outcome.max_abs), max_rel=max(self.max_rel, outcome.max_rel),
                       max_ulp=max(self.max_ulp, outcome.max_ulp), messages=messages,
                       repro=outcome.repro or self.repro, ambiguous=self.ambiguous + len(outcome.ambiguous),
                       law_test=outcome.law_test or self.law_test, failures=failures)

    def as_json(self) -> dict[str, Any]:
        """The cell's entry in the JSON report (docs/conform.md lists its keys)."""
        entry: dict[str, Any] = {
            "domain": self.domain, "op": self.op, "version": self.version, "dtype": self.dtype,
            "status": self.status, "tests": self.tests, "outcomes": dict(self.outcomes), "examples": self.examples,
            "unsupported_draws": self.unsupported_draws, "max_abs": self.max_abs, "max_rel": self.max_rel,
            "max_ulp": self.max_ulp, "messages": list(self.messages), "repro": self.repro}
        if self.ambiguous:
            entry["ambiguous"] = self.ambiguous
        if self.unsupported_reason:
            entry["unsupported_reason"] = self.unsupported_reason
        if self.law_test:
            entry["law_test"] = self.law_test
        if self.failures:
            entry["failures"] = [f.as_json() for f in self.failures]
        if self.expected is not None:
            entry["expected"] = self.expected
        return entry

    @staticmethod
    def from_json(entry: Mapping[str, Any]) -> CellResult:
        """A report's entry back as a record (KeyError / TypeError / ValueError for one that is not)."""
        return CellResult(
            domain=str(entry["domain"]), op=str(entry["op"]), version=int(entry["version"]), dtype=str(entry["dtype"]),
            status=str(entry["status"]), tests=int(entry.get("tests", 0)),
            outcomes={str(k): int(v) for k, v in dict(entry.get("outcomes") or {}).items()},
            examples=int(entry.get("examples", 0)), unsupported_draws=int(entry.get("unsupported_draws", 0)),
            unsupported_reason=entry.get("unsupported_reason"), max_abs=float(entry.get("max_abs", 0.0)),
            max_rel=float(entry.get("max_rel", 0.0)), max_ulp=float(entry.get("max_ulp", 0.0)),
            messages=tuple(str(m) for m in entry.get("messages") or ()), repro=entry.get("repro"),
            ambiguous=int(entry.get("ambiguous", 0)), law_test=entry.get("law_test"),
            failures=tuple(Failure.from_json(f) for f in entry.get("failures") or ()),
            expected=entry.get("expected"))


def _bounded(text: str, limit: int = REPORT_MESSAGE_LIMIT) -> str:
    from conformance.runner.messages import one_line

    return one_line(text, limit)
