"""What the fuzz suite found, kept as ordinary tests (the default run includes them; `-m fuzz` runs the search).

Each test rebuilds the damage that once ended in a traceback (or a hang, or an unbounded allocation) and checks
the located one-line answer that replaced it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tracemalloc
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import helper, numpy_helper

from conformance.backends.protocol import Backend
from conformance.backends.reference import ReferenceBackend
from conformance.registry import current_registry
from conformance.runner.checks import ConformanceFailure, check_case
from conformance.runner.messages import exception_text
from conformance.runner.settings import CheckSettings
from conformance.strategies.cases import op_cases
from opset.errors import Problem, RegistryError
from opset.formula import FormulaError, parse
from opset.load import read_and_check
from opset.registry_home import CHECKOUT_SCHEMAS as DEFAULT_SCHEMAS
from opset.tensor_data import payload_problem
from opset.validate.cli import main_validate
from opset.yaml_source import MAX_YAML_DEPTH, MAX_YAML_VALUES, YamlReadError, read_yaml_text
from tests.helpers.fuzz import assert_one_line_error, assert_validate_outcome, run_main

ROOT = Path(__file__).resolve().parents[2]
LIGHT = Path(os.path.dirname(onnx.__file__)) / "backend" / "test" / "data" / "light"
F = onnx.TensorProto.FLOAT


def _relu_model(*initializers: onnx.TensorProto, nodes: list[onnx.NodeProto] | None = None,
                op_type: str = "Relu") -> onnx.ModelProto:
    x = helper.make_tensor_value_info("x", F, [1])
    y = helper.make_tensor_value_info("y", F, None)
    graph = helper.make_graph(nodes or [helper.make_node(op_type, ["x"], ["y"], name="the_relu")], "g", [x], [y],
                              initializer=list(initializers))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def _validate(tmp_path: Path, model: onnx.ModelProto | bytes, *flags: str) -> tuple[int, str, str, str]:
    path = tmp_path / "model.onnx"
    path.write_bytes(model if isinstance(model, bytes) else model.SerializeToString())
    outcome = run_main(main_validate, [str(path), *flags])
    assert_validate_outcome(outcome, str(path))
    return outcome.code, outcome.stdout, outcome.stderr, str(path)


# --- ONNX models -------------------------------------------------------------------------------------------------

def test_raw_data_that_does_not_fit_the_dims_is_a_tensor_data_error(tmp_path: Path) -> None:
    """Was: ValueError: cannot reshape array of size 1 into shape (65,) (numpy_helper.to_array, three light models)."""
    w = onnx.TensorProto(name="w", data_type=onnx.TensorProto.INT64, dims=[65], raw_data=b"\x01" * 8)
    node = helper.make_node("Reshape", ["x", "w"], ["y"], name="reshape")
    code, out, _, path = _validate(tmp_path, _relu_model(w, nodes=[node]))
    assert code == 1
    assert f"{path}: error [tensor_data] initializer 0 'w': raw_data holds 8 bytes, dims [65] of INT64 need 520" in out


def test_a_light_model_with_a_shortened_initializer(tmp_path: Path) -> None:
    model = onnx.load(str(LIGHT / "light_zfnet512.onnx"))
    first = model.graph.initializer[0]
    first.raw_data = first.raw_data[:-1]
    code, out, _, _ = _validate(tmp_path, model, "--json")
    assert code == 1
    found = [d for d in json.loads(out)["diagnostics"] if d["check"] == "tensor_data"]
    assert len(found) == 1 and f"'{first.name}'" in found[0]["message"]


def test_a_constant_whose_tensor_does_not_fit_names_the_node(tmp_path: Path) -> None:
    value = onnx.TensorProto(name="v", data_type=F, dims=[3], float_data=[1.0])
    node = helper.make_node("Constant", [], ["y"], name="const", value=value)
    code, out, _, _ = _validate(tmp_path, _relu_model(nodes=[node]))
    assert code == 1
    assert "error [tensor_data] node 0 'const' (ai.onnx::Constant): attribute 'value': float_data holds 1 values, " \
           "dims [3] of FLOAT need 3" in out


def test_a_two_to_the_forty_element_initializer_is_an_error_without_allocating(tmp_path: Path) -> None:
    huge = onnx.TensorProto(name="huge", data_type=F, dims=[2**20, 2**20], raw_data=b"\0" * 16)
    node = helper.make_node("Add", ["x", "huge"], ["y"], name="add")
    tracemalloc.start()
    try:
        code, out, _, _ = _validate(tmp_path, _relu_model(huge, nodes=[node]))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert code == 1 and "need 4398046511104" in out
    assert peak < 64 * 2**20, f"validation took {peak} bytes for a 100-byte model"


@pytest.mark.parametrize(("tensor", "problem"), [
    (onnx.TensorProto(data_type=F, dims=[-1], raw_data=b""), "dims [-1] has a negative dim"),
    (onnx.TensorProto(data_type=99, dims=[1]), "data_type 99 is not an element type"),
    (onnx.TensorProto(data_type=onnx.TensorProto.INT4, dims=[3], raw_data=b"\0"), "raw_data holds 1 bytes, dims [3] "
                                                                                  "of INT4 need 2"),
    (onnx.TensorProto(data_type=onnx.TensorProto.STRING, dims=[1], string_data=[b"\xff"]), "string_data[0] is not "
                                                                                             "UTF-8 (byte 0)"),
    (onnx.TensorProto(data_type=onnx.TensorProto.COMPLEX64, dims=[2], float_data=[1, 2]), "float_data holds 2 values, "
                                                                                           "dims [2] of COMPLEX64 "
                                                                                           "need 4"),
])
def test_payload_problems(tensor: onnx.TensorProto, problem: str) -> None:
    assert payload_problem(tensor) == problem


@pytest.mark.parametrize("array", [np.zeros((2, 3), np.float32), np.arange(5, dtype=np.int64), np.array([True]),
                                   np.array(["a", "bc"], dtype=object), np.zeros((0, 4), np.float16)])
def test_what_numpy_helper_writes_fits(array: np.ndarray) -> None:
    assert payload_problem(numpy_helper.from_array(array, "t")) is None


def test_an_op_type_that_is_not_utf8_makes_the_file_unreadable(tmp_path: Path) -> None:
    """Was: TypeError: 'in <string>' requires string as left operand, not bytes (validate/node.py, unresolved)."""
    data = _relu_model(op_type="Rxlu").SerializeToString().replace(b"Rxlu", b"R\xfflu")
    code, _, err, path = _validate(tmp_path, data)
    assert code == 2
    assert err.strip() == f"error: {path}: not an ONNX model (model.graph.node[0].op_type is not valid UTF-8)"


def test_an_empty_dim_param_is_an_unknown_dim(tmp_path: Path) -> None:
    """Was: FormulaError: a symbolic dim needs a non-empty name, not '' (validate/facts.py)."""
    model = _relu_model()
    model.graph.input[0].type.tensor_type.shape.dim[0].dim_param = ""
    model.graph.input[0].type.tensor_type.shape.dim.add().dim_param = ""
    for _ in range(2):  # the output's rank (onnx's checker wants it declared), dims unknown
        model.graph.output[0].type.tensor_type.shape.dim.add()
    code, _, _, _ = _validate(tmp_path, model)
    assert code == 0


def test_a_newline_in_an_op_type_stays_on_one_line(tmp_path: Path) -> None:
    code, out, _, path = _validate(tmp_path, _relu_model(op_type="Re\nlu\u2028"))
    assert code == 1
    assert all(line.startswith(f"{path}: ") for line in out.splitlines())
    assert "Re\\nlu\\u2028" in out


# --- registry YAML ------------------------------------------------------------------------------------------------

LAUGHS = "\n".join(["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"] + [
    f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 10)])


@pytest.mark.parametrize(("text", "line", "message"), [
    (LAUGHS, None, f"the file expands to more than {MAX_YAML_VALUES} values"),
    ("x: &a [1, *a]", 1, "an alias refers to a collection that contains it"),
    ("m: &m {k: *m}", 1, "an alias refers to a collection that contains it"),
    ("x: " + "[" * (MAX_YAML_DEPTH + 2) + "]" * (MAX_YAML_DEPTH + 2), 1, f"nested more than {MAX_YAML_DEPTH} levels"),
    ("a: 1\nb: !!int xyz", 2, "'xyz' is not a valid int"),
    ("b: !!bool maybe", 1, "'maybe' is not a valid bool"),
    ("b: !!float", 1, "'' is not a valid float"),
    ("n: " + "9" * 5000, 1, "a number written with 5000 characters"),
    ("f: !!python/object:os.system x", 1, "unsupported YAML tag"),
])
def test_yaml_that_once_crashed_or_hung(text: str, line: int | None, message: str) -> None:
    """Were: ValueError (int digits limit, !!int xyz), KeyError (!!bool maybe), IndexError (empty !!float),
    RecursionError (self-referencing alias, deep nesting), and an exponential expansion (billion laughs)."""
    with pytest.raises(YamlReadError) as caught:
        read_yaml_text(text)
    assert message in caught.value.message
    if line is not None:
        assert caught.value.line == line


def test_dates_and_bytes_are_kept_as_written() -> None:
    data, _ = read_yaml_text("d: 2001-02-30\nb: !!binary xx\nt: !!timestamp x")
    assert data == {"d": "2001-02-30", "b": "xx", "t": "x"}


def test_unsqueeze_with_each_constraint_line_indented(tmp_path: Path) -> None:
    """The issue's RecursionError report: one line of ai.onnx/Unsqueeze.yaml's constraints indented by one more
    space. Every such line now gives located problems."""
    source = DEFAULT_SCHEMAS / "ai.onnx" / "Unsqueeze.yaml"
    lines = source.read_text(encoding="utf-8").splitlines(keepends=True)
    folder = tmp_path / "ai.onnx"
    folder.mkdir()
    (folder / "_domain.yaml").write_text((DEFAULT_SCHEMAS / "ai.onnx" / "_domain.yaml").read_text(encoding="utf-8"))
    target = folder / "Unsqueeze.yaml"
    inside = [k for k, line in enumerate(lines) if line.startswith("  - ") or line.startswith("    ")]
    assert inside
    for k in inside:
        target.write_text("".join([*lines[:k], " " + lines[k], *lines[k + 1:]]), encoding="utf-8")
        try:
            read_and_check(tmp_path, [folder / "_domain.yaml", target])
        except RegistryError as e:
            assert all(len(str(p).splitlines()) == 1 for p in e.problems)


def test_a_problem_prints_as_one_line() -> None:
    assert str(Problem("f.yaml", 3, "Op", "name 'a\nb' \x00")) == "f.yaml:3: Op: name 'a\\nb' \\x00"


# --- formulas -----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["[0] * 10**12", "range(10**12)", "2 ** 10**6", "[i for i in range(10**6) "
                                  "for j in range(10**6)]"])
def test_huge_formula_requests_are_errors(text: str) -> None:
    with pytest.raises(FormulaError):
        parse(text).evaluate({})


# --- backends -----------------------------------------------------------------------------------------------------

class _Silent(Exception):
    def __str__(self) -> str:
        raise RuntimeError("cannot print")


@pytest.mark.parametrize(("error", "line"), [(TypeError(), "TypeError"), (_Silent(), "_Silent"),
                                              (ValueError("a\nb"), "ValueError: a b"),
                                              (KeyError("k"), "KeyError: 'k'")])
def test_exception_line(error: BaseException, line: str) -> None:
    """The whole message on one line (was: its first line only, which dropped a backend's cause)."""
    assert exception_text(error) == line


class _RaisesEmpty:
    def run(self, node: onnx.NodeProto, inputs: list[np.ndarray], opset_imports: dict[str, int] | None = None
            ) -> list[np.ndarray]:
        raise TypeError()


def test_a_backend_exception_without_a_message_is_a_recorded_failure() -> None:
    """Was: IndexError (str(e).splitlines()[0] of an empty message) out of the check."""
    from hypothesis import find

    version = current_registry().op("ai.onnx", "Relu").version(14)
    case = find(op_cases(version, "float"), lambda _: True)
    ReferenceBackend()  # the strategy's imports are warm: what is measured is the check
    with pytest.raises(ConformanceFailure, match="backend raised TypeError"):
        check_case(case, Backend(_RaisesEmpty(), "empty"), CheckSettings(spec="empty"))


# --- broken pipes -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("argv", [["-m", "opset.cli", "validate", "--json", str(LIGHT / "light_densenet121.onnx")],
                                  ["-m", "opset.cli", "list"], ["-m", "gen.cli", "--help"],
                                  ["-m", "conformance.cli", "--help"]], ids=["validate", "list", "gen", "conform"])
def test_a_reader_that_goes_away_ends_the_command_quietly(argv: list[str]) -> None:
    """Was: `opset validate --json MODEL | head -1` ended in a BrokenPipeError traceback."""
    proc = subprocess.Popen([sys.executable, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader leaves before the command writes anything
    err = proc.stderr.read().decode()
    code = proc.wait(timeout=120)
    assert "Traceback" not in err and "BrokenPipeError" not in err, err
    assert code == 0, err


def test_assert_one_line_error_refuses_two_lines() -> None:
    """The fuzz suite's own check can fail."""
    from tests.helpers.fuzz import Outcome

    with pytest.raises(AssertionError):
        assert_one_line_error(Outcome(2, "", "error: m.onnx: x\nmore\n"), "m.onnx")


def test_a_device_is_not_read_as_a_model() -> None:
    """`opset validate /dev/zero` read forever (onnx.load reads the whole file)."""
    outcome = run_main(main_validate, ["/dev/zero"])
    assert outcome.code == 2
    assert_one_line_error(outcome, "/dev/zero")


def test_a_tmfile_constant_that_cannot_take_the_mapped_shape_is_a_view_error() -> None:
    """Was: ValueError: cannot reshape array of size 128 into shape (32,) out of `opset convert` on a .tmfile whose
    damaged dims disagree with the shape its ONNX mapping reshapes a constant to."""
    from opset.tmfile.convert import reshaped_constant
    from opset.tmfile.onnx_view import ViewError

    constant = numpy_helper.from_array(np.zeros(128, np.float32), "w")
    with pytest.raises(ViewError, match=r"conv_w: constant 'w' of dims \[128\] cannot take the shape \[32\]"):
        reshaped_constant(constant, [32], "conv_w")
