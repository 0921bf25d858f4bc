"""What a command imports before it needs it (issue 26: a cold CLI as fast as onnx's checker).

Each command runs in a fresh interpreter, through the same `main` its console script calls, and reports which of the
heavy modules it loaded. Help needs none of them; listing the registry (through its compiled cache) needs neither
numpy, nor Jinja2, nor the formula parser; validating a binary model needs none of them either (it reads the model
with onnx's protobuf classes alone, `opset.onnx_proto`, and learns what each formula reads from its generated module).
The speed itself is measured by bench/cold_cli.py, never asserted here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import onnx
import pytest

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("numpy", "onnx", "jinja2", "yaml", "jsonschema", "hypothesis", "opset.formula.parser", "importlib.metadata")
LIGHT_MODEL = Path(onnx.__file__).parent / "backend" / "test" / "data" / "light" / "light_squeezenet.onnx"

# program -> its main, as the console scripts of pyproject.toml call them
MAINS = {"opset": "opset.cli", "conform": "conformance.cli", "gen": "gen.cli"}


def loaded_by(program: str, args: list[str], env: dict[str, str] | None = None) -> list[str]:
    """The HEAVY modules present after `program args` ran to its end (help exits through SystemExit)."""
    code = (f"import json, sys\nfrom {MAINS[program]} import main\n"
            f"try:\n    main({args!r})\nexcept SystemExit:\n    pass\n"
            f"print(json.dumps(sorted(m for m in {HEAVY!r} if m in sys.modules)), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          env=env or dict(os.environ), check=False)
    last = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ""
    assert last.startswith("["), f"{program} {' '.join(args)} did not finish: {done.stderr[-2000:]}"
    found: list[str] = json.loads(last)
    return found


# importlib.metadata finds the plugged-in commands (`opset run`): the help that lists them, or runs one, needs it
@pytest.mark.parametrize(("program", "args", "plugged"), [
    ("opset", ["--help"], True),
    ("opset", [], True),
    ("conform", ["--help"], False),
    ("opset", ["run", "--help"], True),
    ("opset", ["list", "--help"], False),
    ("opset", ["show", "--help"], False),
    ("opset", ["validate", "--help"], False),
    ("opset", ["infer", "--help"], False),
    ("opset", ["convert", "--help"], False),
    ("opset", ["import-onnx", "--help"], False),
    ("opset", ["import-ort", "--help"], False),
    ("conform", ["export", "--help"], False),
    ("conform", ["merge", "--help"], False),
    ("gen", ["--help"], False),
    ("gen", ["classes", "--help"], False),
    ("gen", ["formulas", "--help"], False),
])
def test_help_imports_nothing_heavy(program: str, args: list[str], plugged: bool) -> None:
    heavy = [m for m in loaded_by(program, args) if not (plugged and m == "importlib.metadata")]
    assert heavy == [], f"`{program} {' '.join(args)}` imported {heavy} before it needed them"


@pytest.fixture(scope="module")
def cached(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """An environment whose registry cache is a folder of this module's own, filled by a first run: the shared one may
    have been pruned by the registries other tests build (a run once found it gone, and built it from YAML)."""
    env = {**os.environ, "OPSET_CACHE_DIR": str(tmp_path_factory.mktemp("cache"))}
    env.pop("OPSET_NO_CACHE", None)
    loaded_by("opset", ["list", "--domain", "tengine"], env)
    return env


def test_listing_the_registry_needs_no_numpy_jinja_or_parser(cached: dict[str, str]) -> None:
    assert loaded_by("opset", ["list", "--domain", "tengine"], cached) == []


@pytest.mark.parametrize("name", ["squeezenet", "densenet121", "inception_v2"])
def test_validating_a_model_imports_nothing_heavy(cached: dict[str, str], name: str) -> None:
    model = LIGHT_MODEL.with_name(f"light_{name}.onnx")
    assert loaded_by("opset", ["validate", str(model)], cached) == []


def test_inferring_a_models_shapes_imports_nothing_heavy(tmp_path: Path, cached: dict[str, str]) -> None:
    out = tmp_path / "annotated.onnx"
    assert loaded_by("opset", ["infer", str(LIGHT_MODEL), "-o", str(out)], cached) == []
    assert len(onnx.load(str(out)).graph.value_info) > 0


def test_validating_a_text_model_goes_through_onnx(tmp_path: Path) -> None:
    text = tmp_path / "squeezenet.textproto"
    onnx.save_model(onnx.load(LIGHT_MODEL), str(text))  # onnx picks the text format from the extension
    loaded = loaded_by("opset", ["validate", str(text)])
    assert "onnx" in loaded and "jinja2" not in loaded and "opset.formula.parser" not in loaded


@pytest.mark.parametrize("group", ["opset.commands", "opset.backends", "console_scripts", "pytest11", "no.such.group"])
def test_entry_points_read_as_importlib_metadata_reads_them(group: str) -> None:
    from importlib.metadata import entry_points

    from opset.plugins import entry_points_of

    expected = {ep.name: ep.value for ep in entry_points(group=group)}
    assert {name: e.value for name, e in entry_points_of(group).items()} == expected


def test_entry_points_beside_a_zip_on_the_path_come_from_importlib_metadata(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    import zipfile

    from opset.plugins import entry_points_of

    archive = tmp_path / "plugged.zip"  # a distribution inside a zip: only importlib.metadata reads those
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("plugged-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: plugged\nVersion: 1.0\n")
        z.writestr("plugged-1.0.dist-info/entry_points.txt", "[opset.commands]\nzipped = plugged.cli:main\n")
    monkeypatch.syspath_prepend(str(archive))
    found = entry_points_of("opset.commands")
    assert found["zipped"].value == "plugged.cli:main" and "run" in found


def test_a_plugged_entry_loads_what_it_names() -> None:
    from conformance.models.cli import main_run
    from opset.plugins import entry_points_of

    assert entry_points_of("opset.commands")["run"].load() is main_run
