"""The registry loader (what `opset lint` runs) on op files damaged line by line: deleted, duplicated and
re-indented lines, scalars of the wrong type, anchors and aliases (a billion-laughs file, an alias into itself),
python tags, deep nesting, odd characters.

Each damaged file either loads or gives `RegistryError` whose every problem is one line naming the file; nothing
else escapes, nothing hangs, and alias expansion stays bounded."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from opset.cli import main as opset_main
from opset.errors import RegistryError
from opset.load import read_and_check
from opset.registry_home import CHECKOUT_SCHEMAS as DEFAULT_SCHEMAS
from tests.helpers.fuzz import assert_exit, fuzz, run_main

pytestmark = pytest.mark.fuzz

OP_FILES = sorted(p for p in DEFAULT_SCHEMAS.glob("*/*.yaml") if p.name != "_domain.yaml")
_TEXT: dict[Path, list[str]] = {}

SCALARS = ["123", "-1", "1.5", "1e400", "true", "null", "~", "''", "[1, 2]", "{a: 1}", "[]", "{}", "!!int xyz",
           "!!bool maybe", "!!float", "!!binary xx", "2001-02-30", "!!python/object:os.system x",
           "!!python/name:os.system", "!!str", "&a x", "*a", "*nowhere", "9" * 5000, "0x" + "f" * 600, "'\\u2028'",
           "\"a\\nb\"", "é✓", "\t", "|\n  block", ">-", "? complex", "- a", "a: b: c", "'[" * 30 + "'"]
LAUGHS = ["l0: &l0 [x, x, x, x, x, x, x, x, x, x]"] + [
    f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 10) + "]" for i in range(1, 9)]


def _lines(path: Path) -> list[str]:
    if path not in _TEXT:
        _TEXT[path] = path.read_text(encoding="utf-8").splitlines(keepends=True)
    return _TEXT[path]


@st.composite
def damaged_file(draw: st.DrawFn) -> tuple[Path, str]:
    path = draw(st.sampled_from(OP_FILES), label="file")
    lines = list(_lines(path))
    for _ in range(draw(st.integers(1, 4), label="edits")):
        if not lines:
            lines = ["\n"]
        k = draw(st.integers(0, len(lines) - 1), label="line")
        kind = draw(st.sampled_from(["delete", "duplicate", "indent", "dedent", "scalar", "anchor", "laughs",
                                     "self_alias", "nest", "text"]), label="kind")
        line = lines[k]
        if kind == "delete":
            del lines[k]
        elif kind == "duplicate":
            lines.insert(k, line)
        elif kind == "indent":
            lines[k] = " " * draw(st.integers(1, 4)) + line
        elif kind == "dedent":
            lines[k] = line[draw(st.integers(1, 4)):] if line.startswith(" ") else line
        elif kind == "scalar" and ":" in line:
            key = line.split(":", 1)[0]
            lines[k] = f"{key}: {draw(st.sampled_from(SCALARS))}\n"
        elif kind == "anchor" and ":" in line:
            key, rest = line.split(":", 1)
            lines[k] = f"{key}: &a{rest}" if draw(st.booleans()) else f"{key}: *a\n"
        elif kind == "laughs":
            lines[k:k] = [f"{entry}\n" for entry in LAUGHS]
        elif kind == "self_alias":
            lines[k:k] = ["loop: &loop [*loop]\n"] if draw(st.booleans()) else ["m: &m {k: *m}\n"]
        elif kind == "nest":
            depth = draw(st.integers(30, 3000))
            lines[k:k] = ["deep: " + "[" * depth + "]" * depth + "\n"]
        else:
            lines.insert(k, draw(st.text(max_size=40)) + "\n")
    return path, "".join(lines)


def _copy_domain(root: Path, domain: str) -> Path:
    folder = root / domain
    if not folder.exists():
        folder.mkdir(parents=True)
        shutil.copy(DEFAULT_SCHEMAS / domain / "_domain.yaml", folder / "_domain.yaml")
    return folder


@fuzz(400)
@given(data=st.data())
def test_damaged_op_files_load_or_give_located_problems(tmp_path_factory: pytest.TempPathFactory,
                                                         data: st.DataObject) -> None:
    original, text = data.draw(damaged_file(), label="damaged")
    root = tmp_path_factory.mktemp("registry")
    target = _copy_domain(root, original.parent.name) / original.name
    target.write_text(text, encoding="utf-8")
    try:
        read_and_check(root, [target.parent / "_domain.yaml", target])
        event("loads")
    except RegistryError as e:
        event("problems")
        assert e.problems
        for problem in e.problems:
            shown = str(problem)
            assert "\n" not in shown and len(shown.splitlines()) == 1, shown
            assert problem.file.endswith(original.name) or problem.file.endswith("_domain.yaml"), shown


@fuzz(1)
@given(data=st.data())
def test_opset_lint_on_a_damaged_copy(tmp_path_factory: pytest.TempPathFactory, data: st.DataObject) -> None:
    """The whole command, registry and all (slow: a few examples); exit 0 or 1 with one line a problem."""
    original, text = data.draw(damaged_file(), label="damaged")
    folder = tmp_path_factory.mktemp("lint") / original.parent.name
    folder.mkdir()
    (folder / original.name).write_text(text, encoding="utf-8")
    outcome = run_main(opset_main, ["lint", str(folder / original.name)])
    assert_exit(outcome, (0, 1))
    assert "Traceback" not in outcome.stderr
    if outcome.code == 1:
        assert outcome.stdout.strip() and all(":" in line for line in outcome.stdout.splitlines())
