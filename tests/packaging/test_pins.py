"""The pinned sources of truth: constraints.txt pins the onnx and onnxruntime the registry mirrors (and hypothesis),
the set-up installs through it, the README and the docs home state the pins, and what is installed is what is pinned.
"""

from __future__ import annotations

import re
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest

from opset.importers import anchors

ROOT = Path(__file__).resolve().parents[2]
PINS = anchors.pinned()


def _readme_block(tag: str) -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(f"<!-- {tag} -->(.*?)<!-- /{tag} -->", text, re.S)
    assert match, f"README.md has no {tag} block"
    return match.group(1)


def test_the_anchors_installed_are_the_pinned_ones() -> None:
    assert anchors.mismatches(PINS, anchors.installed()) == [], (
        "the drift tests compare the registry with what is installed: pip install -c constraints.txt onnx onnxruntime")


def test_hypothesis_is_pinned_and_installed_at_its_pin() -> None:
    text = (ROOT / "constraints.txt").read_text(encoding="utf-8")
    (pin,) = re.findall(r"^hypothesis==(\S+)$", text, re.M)
    assert version("hypothesis") == pin, "conform's seeded draws depend on the hypothesis version"


def test_the_setup_installs_through_the_constraints() -> None:
    assert "pip install -q -e '.[test]' -c constraints.txt" in _readme_block("setup")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "-e '.[real-models]' -c constraints.txt" in ci
    assert "-e '.[test,openvino,tract,torch]' -c constraints.txt" in ci  # the backends' own venv


def test_the_backend_extras_are_pinned() -> None:
    """The libraries of the third-party backends (and torch's CPU build, which an unpinned range would not get) are
    pinned, and pyproject's extras name them."""
    text = (ROOT / "constraints.txt").read_text(encoding="utf-8")
    pins = dict(re.findall(r"^([A-Za-z0-9_.-]+)==(\S+)$", text, re.M))
    for name in ("openvino", "tract", "onnx2torch", "torch", "torchvision"):
        assert name in pins, f"constraints.txt does not pin {name}"
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    assert [r.split(">")[0] for r in extras["openvino"]] == ["openvino"]
    assert [r.split(">")[0] for r in extras["tract"]] == ["tract"]
    assert [r.split(">")[0] for r in extras["torch"]] == ["torch", "onnx2torch"]


def test_readme_and_docs_home_state_the_pins() -> None:
    for page in ("README.md", "docs/index.md"):
        text = (ROOT / page).read_text(encoding="utf-8")
        for name, pinned in PINS.items():
            assert f"{name} {pinned}" in text, f"{page} does not say the registry mirrors {name} {pinned}"


def test_library_users_get_ranges_not_pins() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    requirements = [*project["dependencies"], *project["optional-dependencies"]["ort"]]
    for name in anchors.ANCHORS:
        (spec,) = [r for r in requirements if re.match(rf"{name}\b(?!-)", r)]
        assert ">=" in spec and "==" not in spec, spec


def test_write_pins_moves_only_the_anchors(tmp_path: Path) -> None:
    path = tmp_path / "constraints.txt"
    path.write_text("# the anchors\nonnx==1.0.0\nonnxruntime==1.1.0  # ort\nhypothesis==6.0.0\nonnx-ir==1.0.0\n")
    assert anchors.write_pins(path, {"onnx": "1.30.1", "onnxruntime": "1.40.0"})
    assert path.read_text() == ("# the anchors\nonnx==1.30.1\nonnxruntime==1.40.0  # ort\nhypothesis==6.0.0\n"
                                "onnx-ir==1.0.0\n")
    assert anchors.pinned(path) == {"onnx": "1.30.1", "onnxruntime": "1.40.0"}
    assert not anchors.write_pins(path, {"onnx": "1.30.1", "onnxruntime": "1.40.0"})


def test_a_missing_pin_or_file_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "constraints.txt"
    path.write_text("onnx==1.23.2\n")
    with pytest.raises(anchors.AnchorError, match=r"no pin .* for onnxruntime"):
        anchors.pinned(path)
    with pytest.raises(anchors.AnchorError, match="cannot read the pins"):
        anchors.pinned(tmp_path / "absent.txt")


def test_check_names_an_anchor_that_differs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "constraints.txt"
    path.write_text(f"onnx==0.0.1\nonnxruntime=={PINS['onnxruntime']}\n")
    monkeypatch.setattr(anchors, "CONSTRAINTS", path)
    assert anchors.main(["check"]) == 1
    err = capsys.readouterr().err
    assert f"anchors: onnx {version('onnx')} is installed, but the registry mirrors 0.0.1" in err
    assert len(err.strip().splitlines()) == 1  # onnxruntime is at its pin
    assert anchors.main(["nonsense"]) == 2
