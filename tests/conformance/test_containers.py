"""Container values through conformance: cells named by their type, drawn sequences, optionals and maps, the one-node
model that declares them (onnx's full check passes), the backends that take and give them, the comparison, and repro
bundles that store and restore them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance.backends import resolve_backend
from conformance.compare import compare_values, tolerance_for
from conformance.containers import cell_of_value, shape_of, type_fits, value_size, value_type
from conformance.kernels.registry import run_kernel
from conformance.onnx_model import case_model, output_types
from conformance.registry import current_registry
from conformance.runner.checks import check_case, expected_outputs, make_call
from conformance.runner.repro import load_bundle, write_bundle
from conformance.runner.settings import CheckSettings
from conformance.strategies import cell_dtypes, op_cases
from conformance.strategies.case import Case
from conformance.strategies.containers import draw_map, sequence_shapes
from conformance.strategies.context import DrawContext
from conformance.strategies.dtypes import element_of
from opset.cells import cell_name, cell_type, drawable_cell
from opset.infer import infer_shapes, validate_attributes
from opset.model import OpVersion, Tolerance

FAST = settings(max_examples=15, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
TOL = Tolerance(rtol=1e-5, atol=1e-6)


def _version(op: str, since: int) -> OpVersion:
    return current_registry().op("ai.onnx", op).version(since)


# ---------------------------------------------------------------------------------------- cells


def test_a_container_cell_is_named_by_its_type_text_and_a_tensor_cell_by_its_element() -> None:
    drawable = cell_dtypes(_version("Identity", 16))[0]
    assert "float" in drawable and "seq(tensor(float))" in drawable and "optional(tensor(int64))" in drawable
    assert "optional(seq(tensor(bool)))" in drawable
    assert cell_name("tensor(float)") == "float" and cell_type("float") == "tensor(float)"
    assert cell_name("map(int64, float)") == "map(int64,tensor(float))"
    assert drawable_cell("map(string,tensor(double))") and drawable_cell("seq(map(int64,tensor(float)))")
    assert not drawable_cell("seq(tensor(string))") or "string" in drawable  # strings: drawn once strings are
    assert cell_dtypes(_version("SequenceAt", 11))[0][0].startswith("seq(")


def test_a_runtime_value_shows_its_type_and_cell() -> None:
    seq = [np.zeros((2, 3), np.float32), np.zeros(4, np.float32)]
    assert value_type(seq) == "seq(tensor(float))" and cell_of_value(seq) == "seq(tensor(float))"
    assert shape_of(seq) == [[2, 3], [4]] and value_size(seq) == 10
    assert value_type([]) == "seq(?)" and cell_of_value([], "seq(tensor(int8))") == "seq(tensor(int8))"
    assert cell_of_value(None, "optional(tensor(float))") == "optional(tensor(float))"
    assert cell_of_value(np.zeros(2, np.float32), "optional(tensor(float))") == "optional(tensor(float))"
    assert value_type({3: np.float32(1.0)}) == "map(int64,tensor(float))"
    assert type_fits([], "seq(tensor(bool))") and type_fits(None, "optional(seq(tensor(float)))")
    assert not type_fits(seq, "seq(tensor(int64))") and not type_fits(None, "seq(tensor(float))")


# ---------------------------------------------------------------------------------------- strategies


@FAST
@given(data=st.data())
def test_sequence_shapes_keep_one_rank_and_their_bounds(data: st.DataObject) -> None:
    lo = data.draw(st.integers(0, 2))
    hi = data.draw(st.integers(lo, 3))
    ctx = DrawContext(_version("SequenceAt", 11), "seq(tensor(float))", {}, 4)
    shapes = sequence_shapes(data.draw, ctx, min_length=lo, max_length=hi)
    assert lo <= len(shapes) <= hi
    assert len({len(s) for s in shapes}) <= 1 and all(1 <= d <= 4 for s in shapes for d in s)


def test_sequence_bounds_are_checked_up_front() -> None:
    ctx = DrawContext(_version("SequenceAt", 11), "seq(tensor(float))", {}, 4)
    with pytest.raises(ValueError, match="min_length"):
        sequence_shapes(lambda s: s.example(), ctx, min_length=3, max_length=1)


@FAST
@given(data=st.data(), text=st.sampled_from(["map(int64,tensor(float))", "map(string,tensor(double))",
                                             "map(int64,tensor(int64))"]))
def test_drawn_maps_have_distinct_keys_and_typed_values(data: st.DataObject, text: str) -> None:
    found = draw_map(data.draw, text)
    assert len(found) <= 3
    assert all(isinstance(k, str if "string" in text else int) for k in found)
    assert not found or value_type(found) == text


CELLS = [("SequenceAt", 11, "seq(tensor(float16))"), ("SequenceInsert", 11, "seq(tensor(int32))"),
         ("SequenceErase", 11, "seq(tensor(bool))"), ("ConcatFromSequence", 11, "seq(tensor(double))"),
         ("SplitToSequence", 24, "uint8"), ("SequenceConstruct", 11, "int64"),
         ("SequenceEmpty", 11, "seq(tensor(int8))"), ("Optional", 15, "seq(tensor(float))"), ("Optional", 15, "float"),
         ("OptionalGetElement", 18, "optional(seq(tensor(int16)))"),
         ("OptionalHasElement", 18, "optional(tensor(float))"), ("Identity", 16, "optional(tensor(uint64))"),
         ("Identity", 14, "seq(tensor(int8))"), ("SplitToSequence", 24, "bfloat16")]


@pytest.mark.parametrize(("op", "since", "cell"), CELLS)
def test_drawn_container_cases_satisfy_the_schema_and_the_kernel(op: str, since: int, cell: str) -> None:
    version = _version(op, since)

    @FAST
    @given(case=op_cases(version, cell))
    def check(case: Case) -> None:
        shapes = [shape_of(x) for x in case.inputs]
        assert not validate_attributes(version, case.node_attributes, shapes)
        assert not infer_shapes(version, shapes, case.node_attributes).problems
        outputs = run_kernel(version, case.inputs, case.attributes)
        for i, (y, want) in enumerate(zip(outputs, case.expected_shapes, strict=False)):
            if want is not None:
                assert shape_of(y) == want, case
            bound = case.type_bindings.get(version.outputs[min(i, len(version.outputs) - 1)].type)
            assert bound is None or type_fits(y, cell_type(bound)), (case, y)

    check()


def test_an_optional_cell_draws_empty_present_and_omitted_optionals() -> None:
    """Over the draws all three turn up: an empty optional is named on the node and None, an omitted one (18 on)
    is no input at all."""
    version = _version("OptionalHasElement", 18)
    seen: set[str] = set()

    @settings(max_examples=40, deadline=None, database=None)
    @given(case=op_cases(version, "optional(tensor(float))"))
    def draw(case: Case) -> None:
        if not case.input_names:
            seen.add("omitted")
        else:
            assert case.input_names == ["input"]
            seen.add("empty" if case.inputs[0] is None else "present")

    draw()
    assert seen == {"omitted", "empty", "present"}


# ---------------------------------------------------------------------------------------- comparison


def test_sequences_compare_element_by_element() -> None:
    tol = lambda dtype: TOL  # noqa: E731
    a = [np.array([1.0, 2.0], np.float32), np.array([3.0], np.float32)]
    assert compare_values(a, [x.copy() for x in a], tol).ok
    result = compare_values(a, [a[0], np.array([3.5], np.float32)], tol)
    assert not result.ok and result.problem.startswith("element 1: ")
    assert "2 tensors but expected 1" in compare_values(a, a[:1], tol).problem
    assert not compare_values(a, a[0], tol).ok


def test_optionals_compare_empty_against_a_value() -> None:
    tol = lambda dtype: TOL  # noqa: E731
    assert compare_values(None, None, tol).ok
    assert "empty optional" in compare_values(None, np.zeros(1), tol).problem
    assert "expected an empty optional" in compare_values(np.zeros(1), None, tol).problem


def test_maps_compare_key_by_key() -> None:
    tol = lambda dtype: TOL  # noqa: E731
    a = {1: np.float32(0.5), 2: np.float32(1.5)}
    assert compare_values(a, dict(a), tol).ok
    assert "keys differ" in compare_values(a, {1: np.float32(0.5)}, tol).problem
    result = compare_values(a, {1: np.float32(0.5), 2: np.float32(2.5)}, tol)
    assert not result.ok and result.problem.startswith("key 2: ")


# ---------------------------------------------------------------------------------------- models and backends


def _case(op: str, since: int, cell: str, seed: int = 0) -> Case:
    version = _version(op, since)

    found: list[Case] = []

    @settings(max_examples=1, deadline=None, database=None, derandomize=True)
    @given(case=op_cases(version, cell))
    def first(case: Case) -> None:
        found.append(case)

    first()
    return found[0]


SEQ = [np.arange(6, dtype=np.float32).reshape(2, 3), np.ones((1, 3), np.float32)]


def _insert_case(position: int | None) -> Case:
    version = _version("SequenceInsert", 11)
    tensor = np.full((4, 3), 7, np.float32)
    inputs = [SEQ, tensor] + ([] if position is None else [np.array(position, np.int64)])
    names = ["input_sequence", "tensor"] + ([] if position is None else ["position"])
    shapes = [shape_of(x) for x in inputs]
    values = {} if position is None else {"position": [position]}
    expected = infer_shapes(version, shapes, {}, values).outputs
    return Case(version, "seq(tensor(float))", {"S": "seq(tensor(float))", "T": "float", "I": "int64"}, {}, {},
                inputs, names, ["output_sequence"], expected)


def _empty_optional_case() -> Case:
    version = _version("Identity", 16)
    return Case(version, "optional(tensor(float))", {"V": "optional(tensor(float))"}, {}, {}, [None], ["input"],
                ["output"], [None])


@pytest.mark.parametrize("make", [lambda: _insert_case(-1), lambda: _insert_case(None), _empty_optional_case],
                         ids=["insert", "append", "empty_optional"])
def test_the_one_node_model_of_a_container_case_passes_onnx_full_check(make: object) -> None:
    case = make()  # type: ignore[operator]
    expected = expected_outputs(case)
    assert expected is not None
    model = case_model(case, output_types(case, expected), [shape_of(y) for y in expected])
    onnx.checker.check_model(model, full_check=True)
    declared = {v.name: v.type.WhichOneof("value") for v in [*model.graph.input, *model.graph.output]}
    assert declared[case.input_names[0]] in ("sequence_type", "optional_type")


@pytest.mark.parametrize("backend", ["reference", "onnxruntime"])
@pytest.mark.parametrize("make", [lambda: _insert_case(-1), lambda: _insert_case(2), _empty_optional_case],
                         ids=["before_last", "at_end", "empty_optional"])
def test_backends_take_and_give_containers(backend: str, make: object) -> None:
    case = make()  # type: ignore[operator]
    expected = expected_outputs(case)
    assert expected is not None
    call = make_call(case, output_types(case, expected), [shape_of(y) for y in expected])
    got = resolve_backend(backend).run(call)
    assert compare_values(got[0], expected[0], lambda d: tolerance_for(case.version, element_of(d))).ok, got


def test_a_wrong_sequence_is_a_conformance_failure_and_its_bundle_restores_the_containers(tmp_path: Path) -> None:
    case = _insert_case(-1)
    settings_ = CheckSettings(spec="reference", timeout=20.0, repro_dir=tmp_path)

    class Reversed:
        def supports(self, call: object) -> bool:
            return True

        def run(self, call: object) -> list[object]:
            return [list(reversed(resolve_backend("reference").run(call)[0]))]  # type: ignore[arg-type]

    class OffByOne(Reversed):
        def run(self, call: object) -> list[object]:
            (seq,) = resolve_backend("reference").run(call)  # type: ignore[arg-type]
            return [[seq[0] + 1, *seq[1:]]]

    from conformance.runner.checks import ConformanceFailure

    with pytest.raises(ConformanceFailure, match="element shapes"):
        check_case(case, Reversed(), CheckSettings(spec="reference", timeout=20.0))
    with pytest.raises(ConformanceFailure, match="element 0: "):
        check_case(case, OffByOne(), settings_)
    bundle = next(tmp_path.iterdir())
    restored, expected, meta = load_bundle(bundle)
    assert meta["dtype"] == "seq(tensor(float))"
    assert isinstance(restored.inputs[0], list) and len(restored.inputs[0]) == 2
    assert all(np.array_equal(a, b) for a, b in zip(restored.inputs[0], SEQ, strict=True))
    assert expected is not None and [list(x.shape) for x in expected[0]] == [[2, 3], [4, 3], [1, 3]]
    assert restored.expected_shapes == case.expected_shapes


def test_an_empty_optional_input_round_trips_through_a_bundle(tmp_path: Path) -> None:
    case = _empty_optional_case()
    bundle, _ = write_bundle(case, expected_outputs(case), CheckSettings(spec="reference", timeout=20.0,
                                                                           repro_dir=tmp_path), "test")
    restored, expected, _ = load_bundle(bundle)
    assert restored.input_names == ["input"] and restored.inputs == [None] and expected == [None]
    present = Case(case.version, case.dtype, case.type_bindings, {}, {}, [np.ones(2, np.float32)], ["input"],
                   ["output"], [[2]])
    bundle, _ = write_bundle(present, expected_outputs(present), CheckSettings(spec="reference", timeout=20.0,
                                                                               repro_dir=tmp_path / "p"), "test")
    restored, expected, _ = load_bundle(bundle)
    assert np.array_equal(restored.inputs[0], np.ones(2, np.float32))
    assert expected is not None and np.array_equal(expected[0], np.ones(2, np.float32))
