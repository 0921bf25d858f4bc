from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True, scope="session")
def _run_from_repo_root() -> None:
    # registry messages name files relative to the working directory; golden files assume the repo root
    os.chdir(ROOT)


@pytest.fixture(scope="session")
def registry():  # type: ignore[no-untyped-def]
    from opset.load import load_registry

    return load_registry()
