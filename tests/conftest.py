from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

# The test command draws the same examples on every run and every machine (CI's verdict is the one seen here);
# `pytest --hypothesis-profile=explore` draws new ones each run, for looking for bugs rather than guarding against
# regressions.
settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile("repeatable")

ROOT = Path(__file__).resolve().parent.parent


def pytest_configure(config: pytest.Config) -> None:
    # the tests' draws, like conform's, never depend on which of the project's modules happen to be loaded
    from conformance.strategies.repeatable import draw_without_local_constants

    draw_without_local_constants()


@pytest.fixture(autouse=True, scope="session")
def _run_from_repo_root() -> None:
    # registry messages name files relative to the working directory; golden files assume the repo root
    os.chdir(ROOT)


@pytest.fixture(scope="session")
def registry():  # type: ignore[no-untyped-def]
    from opset.load import load_registry

    return load_registry()
