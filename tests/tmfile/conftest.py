"""The mnist model's bytes, for the tests that need its real weights."""

from __future__ import annotations

import pytest

from tests.helpers.tmfile import tmfile_dir


@pytest.fixture(scope="session")
def mnist_bytes() -> bytes:
    path = tmfile_dir() / "mnist.tmfile"
    if not path.exists():
        pytest.skip(f"{path} is not there (set OPSET_TMFILE_DIR)")
    return path.read_bytes()
