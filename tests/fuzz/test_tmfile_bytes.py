"""`.tmfile` models (the shared real ones) damaged where a reader is most trusting: 4-byte words that are offsets
and counts overwritten with values pointing anywhere (past the end, at themselves, 0, 2^31, -1), bit flips and
truncations; then `opset validate`, `opset inspect` and `opset convert` on them.

Every run ends with exit 0, 1 or 2 and no traceback; an unreadable file is one `error:` line naming it. Skipped,
naming the folder, where the shared models are not there (a clean CI checkout may have none)."""

from __future__ import annotations

import struct

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from opset.formula import FormulaError
from opset.registry import Registry
from opset.tmfile import TmfileError, read_tmfile
from opset.tmfile.cli import main_inspect
from opset.tmfile.convert import convert
from opset.tmfile.convert_cli import main_convert
from opset.tmfile.onnx_view import ViewError
from opset.tmfile.params import tengine_versions
from opset.tmfile.validate import structure_diagnostics, validate_tmfile
from opset.validate.cli import main_validate
from tests.helpers.fuzz import assert_exit, assert_one_line_error, assert_validate_outcome, fuzz, run_main
from tests.helpers.tmfile import tmfile_dir

pytestmark = pytest.mark.fuzz

SMALL = ["yolov3_tiny_benchmark.tmfile", "vgg16_benchmark.tmfile", "resnet18_benchmark.tmfile",
         "squeezenet_v1.1_benchmark.tmfile", "mobilenet_benchmark.tmfile", "mssd_benchmark.tmfile"]
_BYTES = {name: (tmfile_dir() / name).read_bytes() for name in SMALL if (tmfile_dir() / name).exists()}


@pytest.fixture(autouse=True)
def _shared_models() -> None:
    if not _BYTES:
        pytest.skip(f"{tmfile_dir()} holds none of {', '.join(SMALL)} (set OPSET_TMFILE_DIR to the shared "
                    ".tmfile folder)")


# converting vgg16's benchmark zero-fills 553 MB of weights, damaged or not (bounded by onnx_view.MAX_ZERO_FILL): the
# tests read and validate it but convert only the others, to keep the fuzz budget for damage
HEAVY_TO_CONVERT = {"vgg16_benchmark.tmfile"}


@st.composite
def named_damage(draw: st.DrawFn, convertible: bool = False) -> tuple[str, bytes]:
    """(model name, damaged bytes); `convertible`: only models cheap to convert."""
    names = sorted(set(_BYTES) - HEAVY_TO_CONVERT) if convertible else sorted(_BYTES)
    name = draw(st.sampled_from(names), label="model")
    data = bytearray(_BYTES[name])
    size = len(data)
    for _ in range(draw(st.integers(1, 5), label="edits")):
        kind = draw(st.sampled_from(["word", "word", "word", "flip", "truncate"]), label="kind")
        if kind == "truncate" and data:
            del data[draw(st.integers(0, len(data) - 1)):]
            continue
        if len(data) < 4:
            break
        at = draw(st.integers(0, (len(data) - 4) // 4), label="word") * 4  # objects are 4-byte aligned
        if kind == "flip":
            data[at + draw(st.integers(0, 3))] ^= 1 << draw(st.integers(0, 7))
            continue
        value = draw(st.one_of(st.sampled_from([0, 1, 4, 12, at, at - 4, size - 4, size, size + 4, 2**31 - 1,
                                                2**31, 2**32 - 1, 0x7FFF, 0x10000]),
                               st.integers(0, 2**32 - 1)), label="value")
        struct.pack_into("<I", data, at, value % 2**32)
    return name, bytes(data)


@fuzz(300)
@given(data=st.data())
def test_damaged_tmfiles_read_validate_and_convert(registry: Registry, data: st.DataObject) -> None:
    """The library path the commands take, with one registry for the session: reading raises only TmfileError
    (one line); what reads validates to diagnostics and converts or says why not (ViewError, FormulaError)."""
    name, damaged_bytes = data.draw(named_damage(), label="damaged")
    try:
        model = read_tmfile(damaged_bytes, registry)
    except TmfileError as e:
        event("unreadable")
        assert str(e) and "\n" not in str(e)
        return
    diagnostics = validate_tmfile(model, registry).diagnostics
    event("invalid" if any(d.is_error for d in diagnostics) else "valid")
    if name in HEAVY_TO_CONVERT or any(d.is_error for d in structure_diagnostics(model.graph,
                                                                                 tengine_versions(registry))):
        return  # `opset convert` stops at structure errors too
    try:
        convert(model, registry)
    except (ViewError, FormulaError) as e:
        assert str(e)


@fuzz(8)
@given(data=st.data())
def test_damaged_tmfiles_through_the_commands(tmp_path_factory: pytest.TempPathFactory, data: st.DataObject) -> None:
    folder = tmp_path_factory.mktemp("tm")
    path = folder / "model.tmfile"
    path.write_bytes(data.draw(named_damage(convertible=True), label="damaged")[1])
    outcome = run_main(main_validate, [str(path)])
    event(f"validate exit {outcome.code}")
    assert_validate_outcome(outcome, str(path))
    inspected = run_main(main_inspect, [str(path)])
    assert_exit(inspected, (0, 2))
    if inspected.code == 2:
        assert_one_line_error(inspected, str(path))
    converted = run_main(main_convert, [str(path), str(folder / "out.onnx")])
    assert_exit(converted)
    assert "Traceback" not in converted.stderr
    if converted.code == 2:
        assert_one_line_error(converted, str(path))


def test_models_listed_exist_in_the_shared_folder() -> None:
    assert set(_BYTES) == set(SMALL), f"missing from {tmfile_dir()}: {sorted(set(SMALL) - set(_BYTES))}"

