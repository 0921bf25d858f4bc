"""onnx's verdicts kept: every model `onnx.checker.check_model(model, full_check=True)` rejects, `opset validate`
rejects too, unless a recorded reading (`opset.validate.onnx_verdicts.CHECKER_READINGS`) says why not. Checked on
hand-made cases (default run) and, as a table of verdict pairs, on the fuzz corpus (the light models edited field by
field, tests/helpers/fuzz_models.py) and on every model of onnx's node suite (slow)."""

from __future__ import annotations

import contextlib
import io
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np
import onnx
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from onnx import TensorProto, helper, numpy_helper

from opset.validate import check_model
from opset.validate.cli import main_validate
from opset.validate.onnx_verdicts import CHECKER_READINGS, checker_reading
from tests.helpers.fuzz_models import edited

F = TensorProto.FLOAT
Verdict = tuple[str, str]  # (onnx's, ours): "accept" or "reject"


def onnx_verdict(model: onnx.ModelProto) -> tuple[str, str]:
    """onnx's full check: ("accept", "") or ("reject", its message)."""
    try:
        onnx.checker.check_model(model, full_check=True)
    except Exception as error:  # the checker raises ValidationError, InferenceError and others, all verdicts
        return "reject", str(error).strip() or type(error).__name__
    return "accept", ""


def our_verdict(model: onnx.ModelProto) -> str:
    return "reject" if any(d.is_error for d in check_model(model).diagnostics) else "accept"


class VerdictTable:
    """Verdict pairs counted; the models onnx rejects and we accept, each with onnx's message and the reading
    that explains it (None: none does)."""

    def __init__(self) -> None:
        self.pairs: Counter[Verdict] = Counter()
        self.weaker: list[tuple[str, str, str | None]] = []  # (model, onnx's message, reading id)

    def add(self, name: str, theirs: str, message: str, ours: str) -> None:
        self.pairs[(theirs, ours)] += 1
        if theirs == "reject" and ours == "accept":
            reading = checker_reading(message)
            self.weaker.append((name, message.splitlines()[0][:200], reading.id if reading else None))

    def unexplained(self) -> list[tuple[str, str, str | None]]:
        return [row for row in self.weaker if row[2] is None]

    def __str__(self) -> str:
        lines = ["onnx's verdict / ours: count"] + [f"  {t} / {o}: {n}" for (t, o), n in sorted(self.pairs.items())]
        lines += [f"  onnx rejects, we accept ({r or 'NO READING'}): {m}: {msg}" for m, msg, r in self.weaker]
        return "\n".join(lines)


# ---- hand-made cases (default run) ----------------------------------------------------------------------------

def _relu(output: onnx.ValueInfoProto | None = None, **graph: object) -> onnx.ModelProto:
    x = helper.make_tensor_value_info("x", F, [2, 3])
    y = output if output is not None else helper.make_tensor_value_info("y", F, [2, 3])
    model = helper.make_model(helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g", [x], [y]),
                              opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 8
    for key, value in graph.items():
        setattr(model.graph, key, value)
    return model


def _edited(model: onnx.ModelProto, edit: Callable[[onnx.ModelProto], object]) -> onnx.ModelProto:
    edit(model)
    return model


def _attribute_twice(m: onnx.ModelProto) -> None:
    m.graph.node[0].op_type = "LeakyRelu"
    m.graph.node[0].attribute.extend([helper.make_attribute("alpha", 0.1), helper.make_attribute("alpha", 0.2)])


def _mistyped_attribute(m: onnx.ModelProto) -> None:
    m.graph.node[0].op_type = "LeakyRelu"
    attr = helper.make_attribute("alpha", 0.1)
    attr.type = onnx.AttributeProto.INT
    m.graph.node[0].attribute.append(attr)


def _initializer_against_input(m: onnx.ModelProto) -> None:
    m.graph.initializer.append(numpy_helper.from_array(np.ones((2, 3, 1), np.float32), "x"))


def _outer_output() -> onnx.ModelProto:
    """An If whose branch gives an outer value as its output, no node of its own computing it."""
    branch = helper.make_graph([], "branch", [], [helper.make_tensor_value_info("x", F, [2, 3])])
    node = helper.make_node("If", ["c"], ["y"], then_branch=branch, else_branch=branch)
    model = helper.make_model(helper.make_graph([node], "g", [helper.make_tensor_value_info("c", TensorProto.BOOL, []),
                                                              helper.make_tensor_value_info("x", F, [2, 3])],
                                                [helper.make_tensor_value_info("y", F, [2, 3])]),
                              opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 8
    return model


def _unsorted() -> onnx.ModelProto:
    model = _relu()
    model.graph.node.insert(0, helper.make_node("Neg", ["h"], ["y2"]))
    model.graph.node[1].output[0] = "h"
    model.graph.node.append(helper.make_node("Identity", ["y2"], ["y"]))
    return model


REJECTED: dict[str, tuple[Callable[[], onnx.ModelProto], str]] = {
    "output_without_shape": (lambda: _relu(helper.make_tensor_value_info("y", F, None)), "incomplete_type"),
    "output_without_type": (lambda: _relu(onnx.ValueInfoProto(name="y")), "incomplete_type"),
    "input_without_element_type": (lambda: _edited(_relu(), lambda m: m.graph.input[0].type.tensor_type.ClearField(
        "elem_type")), "incomplete_type"),
    "graph_without_name": (lambda: _relu(name=""), "graph_form"),
    "ir_version_newer_than_onnx": (lambda: _edited(_relu(), lambda m: setattr(m, "ir_version", onnx.IR_VERSION + 1)),
                                   "model_form"),
    "opset_import_beyond_32_bits": (lambda: _edited(_relu(), lambda m: m.opset_import.append(
        helper.make_opsetid("custom.domain", 2**40))), "model_form"),
    "metadata_key_twice": (lambda: _edited(_relu(), lambda m: m.metadata_props.extend(
        [onnx.StringStringEntryProto(key="k", value="1"), onnx.StringStringEntryProto(key="k", value="2")])),
        "model_form"),
    "attribute_given_twice": (lambda: _edited(_relu(), _attribute_twice), "node_form"),
    "attribute_of_another_type": (lambda: _edited(_relu(), _mistyped_attribute), "node_form"),
    "initializer_against_its_input": (lambda: _edited(_relu(), _initializer_against_input), "shape_mismatch"),
    "ai_onnx_node_without_its_import": (lambda: _edited(_relu(), lambda m: setattr(m.graph.node[0], "domain",
                                                                                     "ai.onnx")),
                                        "missing_opset_import"),
    "subgraph_output_from_outside": (_outer_output, "graph_form"),
    "nodes_out_of_order": (_unsorted, "node_order"),
}


@pytest.mark.parametrize("name", REJECTED)
def test_a_model_onnx_rejects_for_its_form_is_rejected(name: str) -> None:
    build, check = REJECTED[name]
    model = build()
    assert onnx_verdict(model)[0] == "reject"
    assert check in [d.check for d in check_model(model).diagnostics if d.is_error]


def test_the_clean_relu_is_accepted_by_both() -> None:
    assert onnx_verdict(_relu()) == ("accept", "") and our_verdict(_relu()) == "accept"


def _one_element(op: str, inputs: list[onnx.ValueInfoProto], inits: list[onnx.TensorProto], opset: int
                 ) -> onnx.ModelProto:
    node = helper.make_node(op, [vi.name for vi in inputs] + [t.name for t in inits], ["y"])
    y = helper.make_tensor_value_info("y", F, [None] * 3)
    model = helper.make_model(helper.make_graph([node], "g", inputs, [y], inits),
                              opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 9
    return model


@pytest.mark.parametrize("model", [
    _one_element("Pad", [helper.make_tensor_value_info("x", F, [2, 3, 1])],
                 [numpy_helper.from_array(np.array([0, 1, 0, 0, 1, 0], np.int64), "p"),
                  numpy_helper.from_array(np.array([5.0], np.float32), "cv")], 18),
    _one_element("Unsqueeze", [helper.make_tensor_value_info("x", F, [2, 3])],
                 [numpy_helper.from_array(np.array(0, np.int64), "a")], 13),
], ids=["pad_constant_value_1d", "unsqueeze_scalar_axes"])
def test_what_onnx_and_onnxruntime_accept_of_one_element_inputs_is_accepted(model: onnx.ModelProto) -> None:
    """A Pad constant_value of shape [1] and an Unsqueeze axes of rank 0, as onnx's own function bodies write them
    (expanded Attention and Loop tests of its node suite)."""
    import onnxruntime as ort

    assert onnx_verdict(model)[0] == "accept"
    ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    assert our_verdict(model) == "accept", [str(d) for d in check_model(model).diagnostics]


def _group_norm(opset: int) -> onnx.ModelProto:
    x = helper.make_tensor_value_info("x", F, [1, 4, 2, 2])
    params = [numpy_helper.from_array(np.ones(2, np.float32), "s"),
              numpy_helper.from_array(np.zeros(2, np.float32), "b")]
    node = helper.make_node("GroupNormalization", ["x", "s", "b"], ["y"], num_groups=2)
    return helper.make_model(helper.make_graph([node], "g", [x], [helper.make_tensor_value_info("y", F, [1, 4, 2, 2])],
                                               params), opset_imports=[helper.make_opsetid("", opset)])


def _deprecated_upsample(opset: int) -> onnx.ModelProto:
    x = helper.make_tensor_value_info("x", F, [1, 1, 2, 2])
    scales = numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), "sc")
    return helper.make_model(helper.make_graph([helper.make_node("Upsample", ["x", "sc"], ["y"])], "g", [x],
                                               [helper.make_tensor_value_info("y", F, [1, 1, 4, 4])], [scales]),
                             opset_imports=[helper.make_opsetid("", opset)])


# models a recorded reading accepts though onnx's check refuses them (each reading has one here or in the suite)
READING_CASES: dict[str, onnx.ModelProto] = {"group_normalization_18": _group_norm(18)}


@pytest.mark.parametrize("name", READING_CASES)
def test_a_reading_explains_each_model_onnx_refuses_and_we_accept(name: str) -> None:
    model = READING_CASES[name]
    theirs, message = onnx_verdict(model)
    assert theirs == "reject" and our_verdict(model) == "accept" and checker_reading(message) is not None


@pytest.mark.parametrize("opset", [10, 13])
def test_a_deprecated_op_is_refused_as_onnx_and_onnxruntime_refuse_it(opset: int) -> None:
    import onnxruntime as ort

    model = _deprecated_upsample(opset)
    assert onnx_verdict(model)[0] == "reject"
    with pytest.raises(Exception, match="deprecated"):
        ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    assert [d.check for d in check_model(model).diagnostics] == ["deprecated_op"]
    assert our_verdict(_deprecated_upsample(9)) == "accept"


def test_every_checker_reading_is_complete() -> None:
    assert len({r.id for r in CHECKER_READINGS}) == len(CHECKER_READINGS)
    for reading in CHECKER_READINGS:
        assert reading.note and reading.followed_by and "::" in reading.op


# ---- the tables (slow) ------------------------------------------------------------------------------------------

def _file_verdict(tmp: Path, data: bytes) -> str:
    """`opset validate` on the bytes as a user runs it: exit 0 accepts; 1 (errors) and 2 (unreadable) reject."""
    path = tmp / "model.onnx"
    path.write_bytes(data)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = main_validate([str(path)])
    return "accept" if code == 0 else "reject"


def _onnx_file_verdict(data: bytes) -> tuple[str, str]:
    try:
        model = onnx.load_from_string(data)
    except Exception as error:  # a file onnx cannot read is a rejected one
        return "reject", f"unreadable: {error}"
    return onnx_verdict(model)


FUZZ_MODELS = 1500


@pytest.mark.slow
def test_the_fuzz_corpus_keeps_onnxs_verdicts(tmp_path: Path) -> None:
    table = VerdictTable()

    @settings(max_examples=FUZZ_MODELS, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck), phases=[Phase.generate])
    @given(data=st.data())
    def verdicts(data: st.DataObject) -> None:
        model = data.draw(edited(), label="bytes")
        theirs, message = _onnx_file_verdict(model)
        table.add(f"fuzz {sum(table.pairs.values())}", theirs, message, _file_verdict(tmp_path, model))

    verdicts()
    print(table)
    assert sum(table.pairs.values()) == FUZZ_MODELS
    assert table.pairs[("reject", "reject")] > FUZZ_MODELS // 2  # the edits do damage models
    assert not table.unexplained(), str(table)


def _node_suite() -> Iterable[tuple[str, onnx.ModelProto]]:
    from onnx.backend.test.case.node import collect_testcases

    with np.errstate(all="ignore"):
        cases = collect_testcases(None)
    return [(case.name, case.model) for case in cases]


@pytest.mark.slow
def test_the_node_suite_keeps_onnxs_verdicts() -> None:
    table = VerdictTable()
    for name, model in [*_node_suite(), *READING_CASES.items()]:
        theirs, message = onnx_verdict(model)
        table.add(name, theirs, message, our_verdict(model))
    print(table)
    assert sum(table.pairs.values()) > 1500
    assert not table.unexplained(), str(table)
    used = {reading for _, _, reading in table.weaker}
    stale = sorted({r.id for r in CHECKER_READINGS} - used)
    assert not stale, f"readings no model needs: {stale}"
