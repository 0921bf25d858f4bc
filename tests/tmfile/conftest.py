"""The shared real models (OAID/Tengine's, in `../shared/data/tmfile` or `$OPSET_TMFILE_DIR`): a test that needs one
is skipped, with the folder named, where they are not there; the hand-built models' tests run everywhere."""

from __future__ import annotations

import pytest

from tests.helpers.tmfile import tmfile_dir


def shared_model(name: str) -> bytes:
    path = tmfile_dir() / name
    if not path.exists():
        pytest.skip(f"{path} is not there (set OPSET_TMFILE_DIR to the shared .tmfile folder)")
    return path.read_bytes()


@pytest.fixture(scope="session")
def mnist_bytes() -> bytes:
    return shared_model("mnist.tmfile")
