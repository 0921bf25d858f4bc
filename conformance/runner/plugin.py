"""The pytest plugin of generated conformance modules: `pytest -p conformance.runner.plugin --backend X`.

It opens the backend, applies the expectations file as xfail marks, attaches each test's cell and
error figures to its report, and (in the controlling process only, with or without xdist) writes
the JSON report after every result.
"""

from __future__ import annotations

import json
from collections.abc import Generator, Iterable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, settings

from conformance.runner import state
from conformance.runner.expectations import Expectation, expectation_for, load_expectations
from conformance.runner.report import Report
from conformance.strategies.repeatable import draw_without_local_constants

PROFILE = "conform"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("conform", "operator conformance")
    group.addoption("--backend", default="reference", help="backend to test (name, module[:factory], file.py)")
    group.addoption("--conform-max-examples", type=int, default=25, help="Hypothesis examples per cell")
    group.addoption("--conform-timeout", type=float, default=20.0, help="seconds a backend may take per case")
    group.addoption("--conform-repro-dir", default=None, help="write a repro bundle per failure here")
    group.addoption("--conform-report", default=None, help="JSON report path (rewritten as results arrive)")
    group.addoption("--conform-expectations", default=None, help="YAML file of known gaps (become xfail)")
    group.addoption("--conform-opset", type=int, default=None, help="only versions an import of this opset uses")
    group.addoption("--conform-shrink", action="store_true", help="let Hypothesis shrink failing cases")
    group.addoption("--conform-shard", default=None, help="K/N: run only the cells of the K-th of N shards")
    group.addoption("--conform-constant-inputs", default="auto", choices=("auto", "none", "params", "all"),
                    help="which inputs the backend gets as constants (initializers), by their registry role")
    group.addoption("--conform-events", default=None, help="folder where progress events go (conformance.runner."
                                                           "events)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "conform_cell(domain, op, since, dtype): the cell a test belongs to")
    phases = [Phase.explicit, Phase.reuse, Phase.generate] + ([Phase.shrink] if config.option.conform_shrink else [])
    # shrinking re-runs the backend many times; for crashes and hangs that costs a timeout per run
    settings.register_profile(PROFILE, max_examples=config.option.conform_max_examples, deadline=None,
                              database=None, phases=phases, report_multiple_bugs=False, print_blob=False,
                              suppress_health_check=[HealthCheck.differing_executors])
    settings.load_profile(PROFILE)
    draw_without_local_constants()  # the same --seed draws the same cases wherever conform runs
    repro = config.option.conform_repro_dir
    state.configure(config.option.backend, config.option.conform_timeout, Path(repro).resolve() if repro else None,
                    config.option.conform_constant_inputs)
    expectations_path = config.option.conform_expectations
    config.stash[_EXPECTATIONS] = load_expectations(Path(expectations_path)) if expectations_path else []
    if not hasattr(config, "workerinput"):
        report_path = config.option.conform_report
        config.stash[_REPORT] = Report(Path(report_path) if report_path else None, config.option.backend)
        if config.option.conform_shard:
            config.stash[_REPORT].data["shard"] = config.option.conform_shard
        if config.option.conform_events:
            from conformance.runner.events import EventWriter

            events = EventWriter(Path(config.option.conform_events), config.stash[_REPORT].data["cells"])
            config.pluginmanager.register(events, "conform-events")


_EXPECTATIONS = pytest.StashKey[Iterable[Expectation]]()
_REPORT = pytest.StashKey[Report]()


def _cell_of(item: pytest.Item) -> tuple[str, str, int, str] | None:
    module = getattr(item, "module", None)
    params = getattr(getattr(item, "callspec", None), "params", {})
    if module is None or "since" not in params or "dtype" not in params:
        return None
    # a property-test module is one op's; a suite module's cases carry their own domain and op
    domain = params.get("domain", getattr(module, "DOMAIN", None))
    op = params.get("op", getattr(module, "OP", None))
    return (str(domain), str(op), int(params["since"]), str(params["dtype"]))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Keep the cells of the opset (`--conform-opset`) and the shard (`--conform-shard`), mark expected failures,
    and tell the progress (`--conform-events`) how many tests each kept cell has."""
    from conformance.runner.report import cell_key
    from conformance.runner.shard import Shard

    opset = config.option.conform_opset
    shard = Shard.from_spec(config.option.conform_shard) if config.option.conform_shard else None
    keep: list[pytest.Item] = []
    drop: list[pytest.Item] = []
    tests_per_cell: dict[str, int] = {}
    for item in items:
        cell = _cell_of(item)
        if cell is None:  # not a cell's test: the first shard runs it
            (keep if shard is None or shard.index == 1 else drop).append(item)
            continue
        label = cell_key(*cell)
        if (opset is not None and not _version_in_opset(cell, opset)) or (shard is not None
                                                                            and not shard.holds(label)):
            drop.append(item)
            continue
        item.user_properties.append(("conform_cell", json.dumps(cell)))
        entry = expectation_for(cell, config.stash[_EXPECTATIONS])
        if entry is not None:
            kind = f" ({entry.kind})" if entry.kind else ""
            item.add_marker(pytest.mark.xfail(reason=f"expected{kind}: {entry.reason}", strict=False))
        tests_per_cell[label] = tests_per_cell.get(label, 0) + 1
        keep.append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
    if config.option.conform_events:
        from conformance.runner.events import write_collection

        write_collection(Path(config.option.conform_events), tests_per_cell)


def _version_in_opset(cell: tuple[str, str, int, str], opset: int) -> bool:
    from conformance.registry import current_registry

    domain, op, since, _ = cell
    version = current_registry().try_resolve(domain, op, opset)
    return version is not None and version.domain == domain and version.since == since


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, Any, Any]:
    state.start_test()
    try:
        result = yield
        stats = state.SESSION.stats
        if stats.unsupported_draws and not stats.ran:  # every draw declined: the cell was not tested at all
            pytest.skip(f"unsupported: {stats.unsupported_reason}")  # the report counts the draws
        return result
    finally:
        stats = state.SESSION.stats
        item.user_properties.append(("conform_stats", json.dumps(
            {"examples": stats.examples, "max_abs": stats.max_abs, "max_rel": stats.max_rel,
             "max_ulp": stats.max_ulp, "repro": stats.repro, "ambiguous": stats.ambiguous,
             "law_test": stats.law_test, "unsupported_draws": stats.unsupported_draws,
             "unsupported_reason": stats.unsupported_reason})))


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    config = _CONFIG.get("config")
    if config is None or _REPORT not in config.stash:
        return
    props = dict(report.user_properties)
    if "conform_cell" not in props:
        return
    status = _status(report)
    if status is None:
        return
    domain, op, since, dtype = json.loads(str(props["conform_cell"]))
    stats = json.loads(str(props.get("conform_stats", "{}")))
    config.stash[_REPORT].record((domain, op, int(since), dtype), status, _message(report), stats)


def _status(report: pytest.TestReport) -> str | None:
    xfailed = hasattr(report, "wasxfail")
    if report.when == "call":
        if report.passed:
            return "xpass" if xfailed else "pass"
        if report.failed:
            return "fail"
        return "xfail" if xfailed else "unsupported"
    if report.failed:
        return "fail"
    if report.when == "setup" and report.skipped:
        return "xfail" if xfailed else "unsupported"
    return None


def _message(report: pytest.TestReport) -> str:
    if report.skipped and isinstance(report.longrepr, tuple):
        return str(report.longrepr[2])
    if hasattr(report, "wasxfail"):
        return str(report.wasxfail)
    if report.failed:
        text = report.longreprtext
        lines = text.splitlines()
        found = [ln for ln in lines if "ConformanceFailure:" in ln] or [ln for ln in lines if ln.startswith("E ")][-1:]
        return (found[0] if found else text[-1500:]).replace("E   ", "").strip()
    return ""


_CONFIG: dict[str, pytest.Config] = {}


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    _CONFIG["config"] = session.config


def pytest_sessionfinish(session: pytest.Session) -> None:
    state.close()
    config = session.config
    if _REPORT in config.stash:
        from conformance.runner.cells import registry_cells
        from conformance.runner.expectations import unmatched

        stale = unmatched(config.stash[_EXPECTATIONS], registry_cells())
        config.stash[_REPORT].finish([f"{e.describe()}: {e.reason}" for e in stale])
