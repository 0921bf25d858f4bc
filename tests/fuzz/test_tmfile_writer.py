"""The `.tmfile` writer and `opset convert MODEL.onnx MODEL.tmfile` on damaged input: ONNX models edited field by
field (node op types, attribute values, dims, initializers; from tests/fuzz/test_validate_protobuf.py, and finer
edits of a small vision net the converter takes whole), ONNX bytes cut or flipped, and damaged real `.tmfile`s that
still read, written back.

Every run ends with exit 0, 1 or 2 and no traceback; an unreadable model is one `error:` line naming it; a file the
converter writes reads back and validates without errors; the writer writes what the reader read, or says why not
in one line."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from opset.registry import Registry
from opset.tmfile import TmfileError, read_tmfile, write_tmfile
from opset.tmfile.convert_cli import main_convert
from opset.tmfile.validate import validate_tmfile
from tests.helpers.fuzz import assert_exit, assert_one_line_error, fuzz, run_main
from tests.helpers.fuzz_models import BIG_INTS, DIMS, MARK, _not_utf8, edited
from tests.helpers.onnx_nets import small_net
from tests.helpers.tmfile_damage import _BYTES, named_damage

pytestmark = pytest.mark.fuzz

_NET = small_net().SerializeToString()
ATTRIBUTE_VALUES = [*BIG_INTS, 3, 6]


def _check_written(outcome_code: int, out: Path, registry: Registry) -> None:
    if outcome_code == 0:
        model = read_tmfile(out, registry)
        problems = [str(d) for d in validate_tmfile(model, registry).diagnostics if d.is_error]
        assert not problems, problems[:5]
    else:
        assert not out.exists(), "nothing is written when the conversion fails"


def _convert(path: Path, out: Path, registry: Registry) -> None:
    outcome = run_main(main_convert, [str(path), str(out)])
    event(f"exit {outcome.code}")
    assert_exit(outcome)
    assert "Traceback" not in outcome.stderr, outcome.stderr[-2000:]
    if outcome.code == 2:
        assert_one_line_error(outcome, str(path))
    elif outcome.code == 1:
        assert outcome.stderr.strip(), "a refusal says why"
    _check_written(outcome.code, out, registry)


@st.composite
def edited_net(draw: st.DrawFn) -> bytes:
    """The small net with one to three edits the converter reaches: an attribute's value (ints become other ints
    or lists of another length), the input's dims, an initializer's dims or values, a node's op type or input."""
    model = onnx.ModelProto.FromString(_NET)
    g = model.graph
    for _ in range(draw(st.integers(1, 3), label="edits")):
        kind = draw(st.sampled_from(["attribute", "attribute", "input_dims", "initializer", "op_type", "wire"]),
                    label="kind")
        node = g.node[draw(st.integers(0, len(g.node) - 1), label="node")]
        if kind == "attribute" and node.attribute:
            a = node.attribute[draw(st.integers(0, len(node.attribute) - 1), label="attribute")]
            if a.type == onnx.AttributeProto.INTS:
                del a.ints[:]
                a.ints.extend(draw(st.lists(st.sampled_from(ATTRIBUTE_VALUES), max_size=6), label="ints"))
            elif a.type == onnx.AttributeProto.INT:
                a.i = draw(st.sampled_from(ATTRIBUTE_VALUES), label="int")
            elif a.type == onnx.AttributeProto.FLOAT:
                a.f = draw(st.floats(width=32), label="float")
        elif kind == "input_dims":
            dims = g.input[0].type.tensor_type.shape.dim
            dims[draw(st.integers(0, len(dims) - 1), label="dim")].dim_value = draw(st.sampled_from(
                [d for d in DIMS if d >= 0] + [2, 5, 17]), label="value")
        elif kind == "initializer":
            t = g.initializer[draw(st.integers(0, len(g.initializer) - 1), label="initializer")]
            value = onnx.numpy_helper.to_array(t)
            shape = draw(st.lists(st.integers(1, 9), min_size=0, max_size=4), label="shape")
            fill = draw(st.sampled_from([0.0, -1.0, float("nan"), float("inf"), 1e30]), label="fill")
            new = np.full(shape, fill, np.float32) if draw(st.booleans(), label="reshape") else \
                np.full(value.shape, fill, np.float32)
            t.CopyFrom(onnx.numpy_helper.from_array(new, t.name))
        elif kind == "op_type":
            node.op_type = draw(st.sampled_from(["Relu", "Conv", "Add", "Clip", "MaxPool", "Gemm", "Softmax",
                                                 "Flatten", "Concat", "Sigmoid", "Reshape", "Einsum", MARK]),
                                label="op")
        elif kind == "wire" and node.input:
            names = [t.name for t in g.initializer] + [o for n in g.node for o in n.output] + ["x", "nowhere", ""]
            node.input[draw(st.integers(0, len(node.input) - 1), label="slot")] = draw(st.sampled_from(names),
                                                                                         label="name")
    data = model.SerializeToString()
    if MARK.encode() in data:
        bad = draw(st.binary(min_size=len(MARK.encode()), max_size=len(MARK.encode())).filter(_not_utf8))
        data = data.replace(MARK.encode(), bad)
    return data


@fuzz(150)
@given(data=st.data())
def test_edited_nets_convert_or_say_why(registry: Registry, tmp_path_factory: pytest.TempPathFactory,
                                        data: st.DataObject) -> None:
    folder = tmp_path_factory.mktemp("writer")
    path = folder / "net.onnx"
    path.write_bytes(data.draw(edited_net(), label="net"))
    _convert(path, folder / "net.tmfile", registry)


@fuzz(25)
@given(data=st.data())
def test_edited_light_models_convert_or_say_why(registry: Registry, tmp_path_factory: pytest.TempPathFactory,
                                                data: st.DataObject) -> None:
    folder = tmp_path_factory.mktemp("writer")
    path = folder / "light.onnx"
    path.write_bytes(data.draw(edited(), label="light model"))
    _convert(path, folder / "light.tmfile", registry)


@fuzz(60)
@given(data=st.data())
def test_damaged_onnx_bytes(registry: Registry, tmp_path_factory: pytest.TempPathFactory, data: st.DataObject) -> None:
    folder = tmp_path_factory.mktemp("writer")
    raw = bytearray(_NET)
    for _ in range(data.draw(st.integers(1, 4), label="edits")):
        if not raw:
            break
        at = data.draw(st.integers(0, len(raw) - 1), label="at")
        if data.draw(st.booleans(), label="cut"):
            del raw[at:]
        else:
            raw[at] ^= 1 << data.draw(st.integers(0, 7), label="bit")
    path = folder / "cut.onnx"
    path.write_bytes(bytes(raw))
    _convert(path, folder / "cut.tmfile", registry)


@fuzz(150)
@given(data=st.data())
def test_damaged_tmfiles_that_read_are_written_back(registry: Registry, data: st.DataObject) -> None:
    """What the reader makes of a damaged file the writer writes again, and that reads as the same model (or the
    writer refuses in one line, a TmfileError)."""
    if not _BYTES:
        pytest.skip("no shared .tmfile (OPSET_TMFILE_DIR)")
    _name, damaged = data.draw(named_damage(), label="damaged")
    try:
        model = read_tmfile(damaged, registry)
    except TmfileError:
        event("unreadable")
        return
    try:
        written = write_tmfile(model, registry)
    except TmfileError as e:
        event("refused by the writer")
        assert str(e) and "\n" not in str(e)
        return
    event("written")
    again = read_tmfile(written, registry)
    assert again.graph == model.graph


def test_the_net_converts_undamaged(registry: Registry, tmp_path: Path) -> None:
    path = tmp_path / "net.onnx"
    path.write_bytes(_NET)
    outcome = run_main(main_convert, [str(path), str(tmp_path / "net.tmfile")])
    assert outcome.code == 0, outcome.stderr
