"""The pytest plugin of the modules `gen tests` writes: `pytest -p conformance.runner.plugin --backend X DIR`.

For people who want plain pytest files: each generated test asks for the `conform` fixture and runs one test of a
cell through it, on the same core as `conform` (`runner.core.CellRunner`: the same draws for the same seed, the same
checks and messages). A failing test fails with conform's message, an unsupported one is skipped, one of a cell the
expectations list is an expected failure. The seed is pytest's `--hypothesis-seed` (0 when not given); the other
options are conform's (`runner.config.CELL_OPTIONS`), spelled `--conform-...` except `--backend`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from conformance.runner.config import RunConfig, add_cell_options, check_numbers, values_from_pytest
from conformance.runner.core import CellRunner
from conformance.runner.expectations import Expectation, expectation_for, load_expectations
from conformance.runner.plan import CellTest, CellTestKind
from conformance.runner.results import Cell


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("conform", "operator conformance (conformance.runner.plugin)")
    add_cell_options(group.addoption, pytest=True, required_backend=False)


class Cells:
    """What a generated test calls: one test of a cell, its outcome turned into pytest's."""

    def __init__(self, runner: CellRunner, expectations: Sequence[Expectation]) -> None:
        self.runner = runner
        self.expectations = list(expectations)

    def properties(self, domain: str, op: str, since: int, dtype: str) -> None:
        """The cell's drawn cases."""
        self._run((domain, op, since, dtype), CellTest(CellTestKind.PROPERTIES))

    def law(self, domain: str, op: str, since: int, dtype: str) -> None:
        """The cell's law case."""
        self._run((domain, op, since, dtype), CellTest(CellTestKind.LAW))

    def element_type(self, domain: str, op: str, since: int, dtype: str) -> None:
        """A cell of a type numpy cannot hold."""
        self._run((domain, op, since, dtype), CellTest(CellTestKind.ELEMENT_TYPE))

    def example(self, domain: str, op: str, since: int, name: str, dtype: str) -> None:
        """The version's YAML example `name` (of the cell's element type `dtype`)."""
        self._run((domain, op, since, dtype), CellTest(CellTestKind.EXAMPLE, name))

    def _run(self, cell: Cell, test: CellTest) -> None:
        entry = expectation_for(cell, self.expectations)
        outcome = self.runner.run_test(cell, test, entry)
        if outcome.status == "fail":
            pytest.fail(outcome.message + (f"\n{outcome.detail}" if outcome.detail else ""), pytrace=False)
        if outcome.status == "unsupported":
            pytest.skip(outcome.message)
        if outcome.status == "xfail":
            pytest.xfail(outcome.message)


@pytest.fixture(scope="session")
def conform(request: pytest.FixtureRequest) -> Iterator[Cells]:
    """The run's cells, on the backend `--backend` names (resolved once for the session)."""
    from conformance.backends.protocol import BackendError
    from conformance.runner.config import ConfigError
    from conformance.runner.handle import resolve_handle

    config = _config(request.config)
    try:
        check_numbers(config.max_examples, config.timeout)
        handle = resolve_handle(config.backend)
    except (ConfigError, BackendError) as e:
        raise pytest.UsageError(f"conform: {e}") from None
    expectations = load_expectations(config.expectations) if config.expectations is not None else []
    runner = CellRunner(config, handle)
    try:
        yield Cells(runner, expectations)
    finally:
        runner.close()


def _config(config: pytest.Config) -> RunConfig:
    values = values_from_pytest(config.getoption)
    seed = config.getoption("hypothesis_seed", None)
    try:
        seed_value = int(seed) if seed is not None else 0
    except ValueError:
        raise pytest.UsageError(f"conform: --hypothesis-seed must be a number, not '{seed}'") from None
    paths = {name: Path(values[name]).resolve() if values[name] else None for name in ("expectations", "repro_dir")}
    return RunConfig(**{**values, **paths, "backend": values["backend"] or "reference"}, seed=seed_value,
                     verbose=config.getoption("verbose") > 0)
