"""Expectations files: the loader is strict about `kind`, and every entry of the committed files is triaged."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.runner.expectations import KINDS, ExpectationsError, load_expectations

ROOT = Path(__file__).resolve().parents[2]
TRIAGED = ["onnxruntime", "onnx-reference", "openvino", "tract", "onnx2torch"]  # every committed file


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "x.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_kind_is_read_and_an_unknown_one_is_a_located_error(tmp_path: Path) -> None:
    text = "- {op: Relu, kind: disputed, reason: why}\n- {op: Abs, reason: why}\n"
    entries = load_expectations(write(tmp_path, text))
    assert [e.kind for e in entries] == ["disputed", None]
    with pytest.raises(ExpectationsError, match=r"x.yaml: entry 1 has kind 'gap'; it must be one of bug, disputed"):
        load_expectations(write(tmp_path, "- {op: Relu, kind: gap, reason: why}\n"))


@pytest.mark.parametrize("backend", TRIAGED)
def test_every_entry_of_a_triaged_file_says_its_kind(backend: str) -> None:
    entries = load_expectations(ROOT / "conformance" / "expectations" / f"{backend}.yaml")
    assert entries and all(e.kind in KINDS for e in entries), [e.describe() for e in entries if e.kind is None]
