"""`opset validate` on onnx's light models damaged byte by byte: flips, truncations, overwritten and inserted runs.

Whatever the damage, validation ends with exit 0, 1 (diagnostics naming the file) or 2 (one line: the file cannot
be read), never a traceback; `--json` output stays one JSON document."""

from __future__ import annotations

import json
import os
from pathlib import Path

import onnx
import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from opset.validate.cli import main_validate
from tests.helpers.fuzz import assert_validate_outcome, fuzz, run_main

pytestmark = pytest.mark.fuzz

LIGHT_DIR = Path(os.path.dirname(onnx.__file__)) / "backend" / "test" / "data" / "light"
LIGHT = sorted(LIGHT_DIR.glob("*.onnx"))
_BYTES = {p.name: p.read_bytes() for p in LIGHT}


@st.composite
def damaged(draw: st.DrawFn) -> bytes:
    """A light model with one to a few byte-level edits; edits land in the first 4 kB more often (where the graph's
    structure sits before the weights) but anywhere too."""
    name = draw(st.sampled_from(sorted(_BYTES)), label="model")
    data = bytearray(_BYTES[name])
    for _ in range(draw(st.integers(1, 6), label="edits")):
        size = len(data)
        if size == 0:
            break
        at = draw(st.one_of(st.integers(0, min(size, 4096) - 1), st.integers(0, size - 1)), label="at")
        kind = draw(st.sampled_from(["flip", "truncate", "overwrite", "insert", "delete", "varint"]), label="kind")
        if kind == "flip":
            data[at] ^= 1 << draw(st.integers(0, 7))
        elif kind == "truncate":
            del data[at:]
        elif kind == "overwrite":
            chunk = draw(st.binary(min_size=1, max_size=16))
            data[at:at + len(chunk)] = chunk
        elif kind == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=16))
        elif kind == "delete":
            del data[at:at + draw(st.integers(1, 16))]
        else:  # a length or count written as a large varint: 2^40, 2^62, -1
            value = draw(st.sampled_from([2**40, 2**62, 2**64 - 1, 2**31, 0]))
            data[at:at + 1] = _varint(value)
    return bytes(data)


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def test_the_light_models_are_there() -> None:
    assert len(LIGHT) >= 9, f"onnx's light models are missing from {LIGHT_DIR}"


@fuzz(150)
@given(data=st.data())
@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_damaged_light_models(tmp_path_factory: pytest.TempPathFactory, as_json: bool, data: st.DataObject) -> None:
    path = tmp_path_factory.mktemp("bytes") / "model.onnx"
    path.write_bytes(data.draw(damaged(), label="bytes"))
    argv = [str(path), "--json"] if as_json else [str(path)]
    outcome = run_main(main_validate, argv)
    event(f"exit {outcome.code}")
    assert_validate_outcome(outcome, str(path))
    if as_json and outcome.code in (0, 1):
        assert json.loads(outcome.stdout)["model"] == str(path)

