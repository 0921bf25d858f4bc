"""`.tmfile` models (the shared real ones) damaged where a reader is most trusting: 4-byte words that are offsets
and counts overwritten with values pointing anywhere (past the end, at themselves, 0, 2^31, -1), bit flips and
truncations; then `opset validate`, `opset inspect` and `opset convert` on them.

Every run ends with exit 0, 1 or 2 and no traceback; an unreadable file is one `error:` line naming it. Skipped,
naming the folder, where the shared models are not there (a clean CI checkout may have none)."""

from __future__ import annotations

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
from tests.helpers.tmfile_damage import _BYTES, HEAVY_TO_CONVERT, SMALL, named_damage

pytestmark = pytest.mark.fuzz

@pytest.fixture(autouse=True)
def _shared_models() -> None:
    if not _BYTES:
        pytest.skip(f"{tmfile_dir()} holds none of {', '.join(SMALL)} (set OPSET_TMFILE_DIR to the shared "
                    ".tmfile folder)")


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

