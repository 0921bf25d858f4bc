"""The README's editable install (`pip install -e .`) gives a user's script outside the checkout the typed API:
`mypy --strict` finds `opset.ops` (setuptools' import-hook editable install hid it: "Cannot find implementation or
library stub") and reports a wrong attribute value, as it does with the wheel.

A copy of the sources is installed editable into a fresh virtual environment whose dependencies are this
interpreter's, as the wheel test does; the script lives in a folder of its own.
"""

from __future__ import annotations

import os
import shutil
import site
import sys
import venv
from pathlib import Path

import pytest

from tests.helpers.packaging import ROOT, SKIPPED, SOURCES, clean_env, run

SCRIPT = """\
import numpy as np

from opset.ops import build, inputs
from opset.ops.ai_onnx import v22 as op

x = inputs.tensor("x", "float", ("N", 3, 8, 8))
y = op.AveragePool(op.Relu(x), kernel_shape=[2, 2], ceil_mode={ceil_mode})
model = build(inputs=[x], outputs={{"y": y}})
"""


@pytest.fixture(scope="module")
def editable_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("editable")
    src = work / "checkout"
    src.mkdir()
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name, ignore=SKIPPED)
        else:
            shutil.copy2(path, src / name)
    env_dir = work / "env"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    purelib = Path(run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                        cwd=work).strip())
    ours = [*site.getsitepackages(), site.getusersitepackages()]
    (purelib / "_outer_dependencies.pth").write_text("".join(f"{p}\n" for p in ours if os.path.isdir(p)))
    run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "-q", "-e", str(src)],
         cwd=work)
    return python


def test_mypy_strict_on_a_script_outside_the_checkout_finds_the_typed_api(editable_python: Path,
                                                                          tmp_path: Path) -> None:
    user = tmp_path / "user"
    user.mkdir()
    (user / "script.py").write_text(SCRIPT.format(ceil_mode=1))
    env = clean_env(tmp_path)
    mypy = [str(editable_python), "-m", "mypy", "--strict", "--no-incremental", "script.py"]
    assert "Success: no issues found in 1 source file" in run(mypy, cwd=user, env=env)
    (user / "script.py").write_text(SCRIPT.format(ceil_mode=2))
    out = run(mypy, cwd=user, env=env, code=1)
    assert "script.py:7: error: Argument \"ceil_mode\" to \"AveragePool\" has incompatible type \"Literal[2]\"" in out
    assert "import-not-found" not in out, out
    found = run([str(editable_python), "-c", "import opset.ops; print(opset.ops.__file__)"], cwd=user, env=env)
    assert "/checkout/opset/ops/" in found  # the editable copy, not this checkout
