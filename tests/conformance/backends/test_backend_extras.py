"""A built-in backend whose extra is not installed: one line naming the install command and exit 2, no traceback."""

from __future__ import annotations

import sys

import pytest

from conformance.backends import BackendError, resolve_backend
from conformance.backends.library import require
from conformance.cli import main

EXTRAS = [("openvino", "openvino", "openvino"), ("tract", "tract", "tract"), ("onnx2torch", "torch", "torch"),
          ("onnx2torch", "onnx2torch", "torch")]


@pytest.mark.parametrize(("backend", "module", "extra"), EXTRAS)
def test_a_missing_extra_names_its_install_command(backend: str, module: str, extra: str,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # `import module` raises ImportError
    with pytest.raises(BackendError, match=rf"install with pip install -e '\.\[{extra}\]' -c constraints\.txt"):
        resolve_backend(backend)
    assert main(["--backend", backend, "--op", "Relu"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"conform: backend '{backend}' needs the ")
    assert "Traceback" not in err


def test_require_gives_the_module() -> None:
    assert require("json", "x", "x").__name__ == "json"
