"""The real `.tmfile` models the tests read: `$OPSET_TMFILE_DIR`, else `../shared/data/tmfile` beside the repo."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def tmfile_dir() -> Path:
    env = os.environ.get("OPSET_TMFILE_DIR")
    return Path(env) if env else ROOT.parent / "shared" / "data" / "tmfile"


def shared_files() -> list[Path]:
    return sorted(tmfile_dir().glob("*.tmfile"))


SHARED = shared_files()
SHARED_IDS = [p.name for p in SHARED]


@pytest.fixture(scope="session")
def mnist_bytes() -> bytes:
    path = tmfile_dir() / "mnist.tmfile"
    if not path.exists():
        pytest.skip(f"{path} is not there (set OPSET_TMFILE_DIR)")
    return path.read_bytes()
