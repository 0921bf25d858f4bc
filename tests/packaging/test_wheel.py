"""A built wheel works away from the checkout: it carries the registry, its type marker and its data files, and
`opset list`, `opset validate` and `conform` run from an unrelated folder in a fresh virtual environment.

The wheel is built from a copy of the sources (so the checkout gets no build/ or egg-info) with pip's ordinary build
isolation, as a user's `pip wheel .` does. The fresh environment gets the wheel alone; its dependencies are the
ones this interpreter already has, reached through a .pth file (offline and quick; a .pth line adds a folder without
running that folder's own .pth files, so the checkout's editable install stays out of reach).
"""

from __future__ import annotations

import os
import shutil
import site
import sys
import venv
import zipfile
from pathlib import Path

import onnx
import pytest
from onnx import TensorProto, helper

from tests.helpers.packaging import ROOT, SKIPPED, SOURCES, clean_env, run


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("wheel")
    src = work / "src"
    src.mkdir()
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name, ignore=SKIPPED)
        else:
            shutil.copy2(path, src / name)
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(work / "dist"), str(src)], cwd=work)
    (built,) = (work / "dist").glob("opset-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh environment with the wheel installed; returns its bin/ folder."""
    env_dir = tmp_path_factory.mktemp("venv") / "env"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    purelib = Path(run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                        cwd=env_dir).strip())
    ours = [*site.getsitepackages(), site.getusersitepackages()]
    (purelib / "_outer_dependencies.pth").write_text("".join(f"{p}\n" for p in ours if os.path.isdir(p)))
    run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index", "-q",
          str(wheel)], cwd=env_dir)
    return env_dir / "bin"


def test_the_wheel_carries_the_registry_and_the_type_marker(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    registry = {n for n in names if n.startswith("opset/_registry/")}
    expected = {f"opset/_registry/{p.relative_to(ROOT / 'schemas').as_posix()}"
                for p in (ROOT / "schemas").rglob("*") if p.is_file() and p.suffix in (".yaml", ".json")}
    assert registry == expected
    assert {"opset/_registry/ai.onnx/Relu.yaml", "opset/_registry/meta/op.schema.json"} <= registry
    reports = {n for n in names if n.startswith("opset/_reports/")}
    assert reports == {f"opset/_reports/{p.name}" for p in (ROOT / "docs" / "reports").glob("*.json")}
    for marker in ("opset/py.typed", "gen/py.typed", "conformance/py.typed"):
        assert marker in names
    record = next(n for n in names if n.endswith(".dist-info/RECORD"))
    assert "opset/py.typed," in zipfile.ZipFile(wheel).read(record).decode()
    assert {"conformance/expectations/onnxruntime.yaml", "gen/docs/templates/index.md.j2",
            "conformance/test_modules/op_test.py.j2"} <= names


def test_commands_run_from_outside_the_checkout(installed: Path, tmp_path: Path) -> None:
    env = clean_env(tmp_path)
    where = run([str(installed / "python"), "-c", "import opset, opset.registry_home as h; "
                  "print(opset.__file__); print(h.schemas_dir())"], cwd=tmp_path, env=env).splitlines()
    assert not Path(where[0]).is_relative_to(ROOT) and Path(where[1]).parts[-2:] == ("opset", "_registry")

    listing = run([str(installed / "opset"), "list", "--domain", "ai.onnx"], cwd=tmp_path, env=env)
    assert any(line.split()[:2] == ["ai.onnx", "Relu"] for line in listing.splitlines())
    assert len(list((tmp_path / "cache").glob("registry-*.marshal"))) == 1  # the compiled cache went where it was told

    _save_model(tmp_path / "relu.onnx", "Relu", [[2, 3]])
    _save_model(tmp_path / "bad_add.onnx", "Add", [[2, 3], [4]])
    assert run([str(installed / "opset"), "validate", "relu.onnx"], cwd=tmp_path, env=env).strip() == \
        "relu.onnx: 0 error(s), 0 warning(s)"
    bad = run([str(installed / "opset"), "validate", "bad_add.onnx"], cwd=tmp_path, env=env, code=1)
    assert "[add_c3] node 0 'the_node' (ai.onnx@14::Add)" in bad
    # the committed reports travel in the wheel: a built-in report by name
    marked = run([str(installed / "opset"), "validate", "relu.onnx", "--backend-report", "onnxruntime"], cwd=tmp_path,
                 env=env)
    assert marked.strip() == "relu.onnx: 0 error(s), 0 warning(s)"

    report = tmp_path / "report.json"
    out = run([str(installed / "conform"), "--backend", "reference", "--op", "Relu", "--max-examples", "3",
                "--report", str(report)], cwd=tmp_path, env=env)
    assert "ai.onnx::Relu" in out and report.is_file()


def test_mypy_sees_the_typed_classes(installed: Path, tmp_path: Path) -> None:
    (tmp_path / "use.py").write_text("from opset.ops.ai_onnx.v14 import Relu\n\nRelu(3)\n")
    out = run([str(installed / "python"), "-m", "mypy", "--no-incremental", "--follow-imports=silent", "use.py"],
               cwd=tmp_path, env=clean_env(tmp_path), code=1)
    # mypy read the wheel's types (no import-untyped) and refused an int where Relu takes a value or an array
    assert "import-untyped" not in out and 'use.py:3: error:' in out and '"Relu"' in out and '"int"' in out, out


def _save_model(path: Path, op: str, shapes: list[list[int]]) -> None:
    inputs = [helper.make_tensor_value_info(f"x{i}", TensorProto.FLOAT, s) for i, s in enumerate(shapes)]
    node = helper.make_node(op, [f"x{i}" for i in range(len(shapes))], ["y"], name="the_node")
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [None] * len(shapes[0]))  # rank declared, dims not
    graph = helper.make_graph([node], "g", inputs, [y])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)]), path)
