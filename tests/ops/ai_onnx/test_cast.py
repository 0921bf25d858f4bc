"""Cast: every pair of numpy element types against onnx.reference and onnxruntime, every pair with an ml_dtypes
type (bfloat16, float8, float4, float6, int4, int2) against onnx.reference, saturation, every version against onnx,
the shape formula, disallowed targets, the validator's output type and the strategy's targets."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
import pytest
from hypothesis import HealthCheck, given, settings
from onnx import helper

from conformance.element_types import ML_FLOATS, ML_INTEGERS, finite_range, numpy_dtype
from conformance.strategies import op_cases
from conformance.strategies.case import Case
from conformance.strategies.context import DrawContext
from conformance.strategies.hint_cast import drawable_targets
from opset.cells import allowed_elements
from opset.dtypes import ELEMENT_TYPES, numpy_name
from opset.validate import check_model
from tests.helpers import (
    OracleCase,
    all_since,
    node_diagnostics,
    oracle_tests,
    rejection_tests,
    run,
    run_onnx_reference,
    run_onnxruntime,
    shape_case,
    shape_tests,
    version,
)

OP = "Cast"
NUMPY_ELEMENTS = ("float16", "float", "double", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                  "uint64", "bool")
CODE = {e: code for e, (code, _) in ELEMENT_TYPES.items()}
DTYPE = {e: np.dtype(numpy_name(e) or e) for e in NUMPY_ELEMENTS}
FLOATS = ("float16", "float", "double")


def source_values(source: str, target: str) -> np.ndarray:
    """Values of `source` whose conversion to `target` ONNX defines, covering each rule: truncation toward zero
    (quarter steps), wrap-around (an integer type's extremes), nonzero-is-true, infinity past float16's range."""
    dtype = DTYPE[source]
    if source == "bool":
        return np.array([True, False, True], dtype=bool)
    if source in FLOATS:
        steps = [-3.75, -1.5, -0.75, -0.0, 0.0, 0.25, 0.5, 1.75, 2.5, 3.0]
        if target.startswith("uint"):
            steps = [s for s in steps if s >= 0]  # a negative float is out of an unsigned type's range
        if target in (*FLOATS, "bool") and source != "float16":
            steps += [1e5, -7e4, 65519.0, 65520.0]  # float16's largest, and past it: infinity
        return np.array(steps, dtype=dtype)
    info = np.iinfo(dtype)  # type: ignore[type-var]
    picks = [info.min, info.min + 1, -1, 0, 1, 127, 128, 200, 255, 256, 65504, 65520, info.max - 1, info.max]
    return np.array(sorted({int(v) for v in picks if info.min <= v <= info.max}), dtype=object).astype(dtype)


PAIRS = [(s, t) for s in NUMPY_ELEMENTS for t in NUMPY_ELEMENTS]


def _pair_model(opset: int) -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:
    """One model that casts every source type to every target type (one node per pair)."""
    nodes, inputs, outputs, feeds = [], [], [], {}
    for s, t in PAIRS:
        name = f"{s}_to_{t}"
        x = source_values(s, t)
        feeds[name] = x
        inputs.append(helper.make_tensor_value_info(name, CODE[s], list(x.shape)))
        outputs.append(helper.make_tensor_value_info(f"{name}_out", CODE[t], list(x.shape)))
        nodes.append(helper.make_node(OP, [name], [f"{name}_out"], to=CODE[t]))
    graph = helper.make_graph(nodes, "pairs", inputs, outputs)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    return model, feeds


@pytest.mark.parametrize("oracle", ["onnx.reference", "onnxruntime"])
def test_every_numpy_pair_matches(oracle: str) -> None:
    """All 144 conversions between the types numpy holds, each rule's values, at opset 13."""
    model, feeds = _pair_model(13)
    want = (run_onnx_reference if oracle == "onnx.reference" else run_onnxruntime)(model, feeds)
    wrong = []
    for (s, t), expected in zip(PAIRS, want, strict=True):
        (got,) = run("ai.onnx", OP, 13, [feeds[f"{s}_to_{t}"]], to=CODE[t])
        if got.dtype != expected.dtype or not np.array_equal(got, expected, equal_nan=got.dtype.kind == "f"):
            wrong.append(f"{s}->{t}: {got.tolist()} vs {expected.tolist()}")
    assert not wrong, f"Cast differs from {oracle}: " + "; ".join(wrong)


CAST_25 = version("ai.onnx", OP, 25)
ML_ELEMENTS = sorted(ML_FLOATS | ML_INTEGERS)


def _narrow_source(source: str, target: str) -> np.ndarray:
    """Values of an ml_dtypes source (or float32 into one) whose conversion to `target` ONNX defines."""
    steps = np.array([-3.75, -1.5, -0.75, 0.0, 0.25, 0.5, 1.75, 2.5, 3.0], np.float32)
    for element in (source, target):
        if element in ML_INTEGERS or element.startswith(("int", "uint")):
            low, high = finite_range(element)
            steps = steps[(steps >= low) & (steps < high + 1)]  # a float out of an integer's range is undefined
        if element == "float8e8m0":
            steps = steps[steps > 0]  # zero and negative values are unspecified in float8e8m0
    return steps.astype(numpy_dtype(source))


@pytest.mark.parametrize("pair", [(s, t) for s in [*ML_ELEMENTS, "float"] for t in [*ML_ELEMENTS, "float"]
                                  if (s in ML_ELEMENTS or t in ML_ELEMENTS)
                                  and s in allowed_elements(CAST_25, "T1") and t in allowed_elements(CAST_25, "T2")],
                         ids=lambda p: f"{p[0]}-{p[1]}")
def test_every_ml_dtypes_pair_matches_onnx_reference(pair: tuple[str, str]) -> None:
    source, target = pair
    x = _narrow_source(source, target)
    # onnx.reference casts nothing out of float8e8m0 but float, nor between two small integer types (ml_dtypes has
    # no such cast): their values widen exactly to float32 or int32 first
    oracle_source, oracle_x = source, x
    if source == "float8e8m0":
        oracle_source, oracle_x = "float", x.astype(np.float32)
    elif source in ML_INTEGERS and target in ML_INTEGERS:
        oracle_source, oracle_x = "int32", x.astype(np.float32).astype(np.int32)
    if target in ML_INTEGERS and not oracle_source.startswith(("int", "uint")):
        # a float into int4/int2 rounds half to even (onnx's int4 and int2 pages); onnx.reference truncates toward
        # zero (Cast's reading cast_r3), so it gets the values already rounded, where both readings agree
        oracle_x = np.rint(oracle_x.astype(np.float32)).astype(oracle_x.dtype)
    node = helper.make_node(OP, ["x"], ["y"], to=CODE[target])
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", CODE[oracle_source], [x.size])],
                              [helper.make_tensor_value_info("y", CODE[target], [x.size])])
    (want,) = run_onnx_reference(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 25)]),
                                 {"x": oracle_x})
    (got,) = run("ai.onnx", OP, 25, [x], to=CODE[target])
    assert got.dtype == want.dtype and np.array_equal(got.astype(np.float32), want.astype(np.float32),
                                                      equal_nan=True), (got, want)


@pytest.mark.parametrize("target", ["float8e4m3fn", "float8e4m3fnuz", "float8e5m2", "float8e5m2fnuz"])
@pytest.mark.parametrize("saturate", [0, 1])
def test_float8_saturation_follows_the_table(target: str, saturate: int) -> None:
    """Past the largest finite value (infinity included) saturate gives it; without, NaN (E5M2: infinity)."""
    x = np.array([1e6, -1e6, np.inf, -np.inf, np.nan, 1.0], np.float32)
    (got,) = run("ai.onnx", OP, 25, [x], to=CODE[target], saturate=saturate)
    largest = finite_range(target)[1]
    values = got.astype(np.float32)
    if saturate:
        assert values[:4].tolist() == [largest, -largest, largest, -largest]
    elif target == "float8e5m2":
        assert values[:4].tolist() == [np.inf, -np.inf, np.inf, -np.inf]
    else:
        assert np.isnan(values[:4]).all()
    assert np.isnan(values[4]) and values[5] == 1.0


@pytest.mark.parametrize(("round_mode", "want"), [("up", [1, 2, 4, 4, 2.0**127]), ("down", [1, 1, 2, 2, 2.0**127]),
                                                  ("nearest", [1, 2, 2, 4, 2.0**127])])
def test_float8e8m0_rounds_the_exponent(round_mode: str, want: list[float]) -> None:
    x = np.array([1.0, 1.5, 2.9, 3.0, 1e39], np.float32)  # 1e39 is infinity in float32: saturates
    (got,) = run("ai.onnx", OP, 25, [x], to=CODE["float8e8m0"], saturate=1, round_mode=round_mode)
    assert got.astype(np.float64).tolist() == want


X = source_values("float", "int32").reshape(2, 5)
CASES = [
    OracleCase(OP, dict(to=CODE["int32"]), [X], all_since(OP, 6), id="float_to_int32"),
    OracleCase(OP, dict(to=CODE["float16"]), [np.arange(-6, 6, dtype=np.int64).reshape(3, 4)], all_since(OP, 6),
               id="int64_to_float16"),
    OracleCase(OP, dict(to="INT32"), [X], (1,), oracle=lambda: [X.astype(np.int32)], id="named_target"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def test_opset_1_names_the_type() -> None:
    """Cast-1's `to` is a DataType name; it converts as Cast-6 does with the number (onnx runs neither)."""
    x = source_values("double", "uint8")
    (named,) = run("ai.onnx", OP, 1, [x], to="UINT8")
    (numbered,) = run("ai.onnx", OP, 6, [x], to=CODE["uint8"])
    assert named.dtype == np.uint8 and np.array_equal(named, numbered)


SHAPES = [shape_case(OP, v, [shape], {"to": CODE["int64"]}) for v in (6, 13, 19, 25)
          for shape in ([2, 3], [], [4, 0, 1])]
REJECTED = [
    (shape_case(OP, 6, [[2]], {"to": ELEMENT_TYPES["bfloat16"][0]}), "attr_allowed"),  # bfloat16 arrives in opset 13
    (shape_case(OP, 13, [[2]], {"to": 14}), "attr_allowed"),  # complex64: never a Cast target
    (shape_case(OP, 19, [[2]], {"to": 1, "saturate": 2}), "attr_allowed"),
    (shape_case(OP, 24, [[2]], {"to": 1, "round_mode": "sideways"}), "attr_allowed"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_opset_1_rejects_a_number() -> None:
    from tests.helpers import problem_checks

    assert "attr_allowed" in problem_checks(version("ai.onnx", OP, 1), [[2]], {"to": "FLOAT8"})
    assert "attr_type" in problem_checks(version("ai.onnx", OP, 1), [[2]], {"to": 7})


@pytest.mark.parametrize(("opset", "to", "want"), [(13, CODE["int8"], "tensor(int8)"),
                                                   (25, CODE["bool"], "tensor(bool)"),
                                                   (1, "DOUBLE", "tensor(double)")])
def test_validator_takes_the_output_type_from_to(opset: int, to: Any, want: str) -> None:
    x = helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [2, "N"])
    node = helper.make_node(OP, ["x"], ["y"], to=to)
    graph = helper.make_graph([node], "g", [x], [onnx.ValueInfoProto(name="y")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    result = check_model(model)
    assert node_diagnostics(result.diagnostics) == []
    assert result.facts["y"].type == want and [str(d) for d in result.facts["y"].shape or ()] == ["2", "N"]


DRAWS = settings(max_examples=30, derandomize=True, database=None, deadline=None,
                 suppress_health_check=list(HealthCheck))


@pytest.mark.parametrize(("since", "cell"), [(1, "double"), (6, "float"), (13, "int8"), (25, "bool")])
def test_strategy_draws_every_target(since: int, cell: str) -> None:
    """The YAML's `dtype_of` draws every target the version allows (ml_dtypes' types too), naming it as the version
    does and binding T2 to it (drawn cases are checked against the schema by conform itself)."""
    v = version("ai.onnx", OP, since)
    seen: set[str] = set()

    @settings(max_examples=600, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(case=op_cases(v, cell))
    def draw(case: Case) -> None:
        target = case.type_bindings["T2"]
        assert case.node_attributes["to"] == (target.upper() if since == 1 else CODE[target])
        seen.add(target)

    draw()
    targets = set(drawable_targets(DrawContext(v, cell, {"T1": cell, "T2": cell}, max_side=3), "T2"))
    assert seen == targets and len(targets) >= 12


@pytest.mark.parametrize(("since", "cell"), [(6, "float"), (25, "uint16")])
def test_drawn_cases_convert_other_types(since: int, cell: str) -> None:
    """Whole drawn cases reach several targets (not only the cell's own, where the generic binding would keep them)."""
    v = version("ai.onnx", OP, since)
    seen: set[int] = set()

    @DRAWS
    @given(case=op_cases(v, cell))
    def draw(case: Case) -> None:
        seen.add(case.node_attributes["to"])
        assert ELEMENT_TYPES[case.type_bindings["T2"]][0] == case.node_attributes["to"]

    draw()
    assert len(seen) >= 6, seen


# ---- strings (opset 9 on): onnxruntime's text formats, the registry's reading ------------------------------------

def _text_sources() -> list[tuple[str, np.ndarray]]:
    rng = np.random.default_rng(9)
    wide = rng.standard_normal(400) * 10.0 ** rng.integers(-9, 12, size=400)
    specials = [0.0, -0.0, 1.0, -3.0, 0.1, 1e8, 99999999.0, 1e-4, 1e-5, 123456789.0, np.inf, -np.inf, np.nan]
    floats = np.concatenate([wide, np.round(wide[:40]), specials])
    with np.errstate(over="ignore"):
        sources = [(e, floats.astype(DTYPE[e])) for e in FLOATS]
    sources += [(e, source_values(e, "float")) for e in NUMPY_ELEMENTS if e not in FLOATS]
    return sources


@pytest.mark.parametrize(("source", "x"), _text_sources(), ids=[s for s, _ in _text_sources()])
def test_numbers_to_strings_as_onnxruntime_writes_them(source: str, x: np.ndarray) -> None:
    from tests.helpers import assert_matches_oracle

    assert_matches_oracle(OracleCase(OP, {"to": CODE["string"]}, [x], (9, 13), oracle="ort"), 13)


LITERALS = {
    "float": ["1", " -2.5 ", "1e3", "1E-2", "INF", "-inf", "+Inf", "infinity", "NaN", "nan", ".5", "5.", "+7", "007",
              "3.4028236e38", "1e-50", "0.1", "-0"],
    "int64": ["0", "-7", "+12", " 42 ", "007", "-9223372036854775808", "9223372036854775807"],
    "uint8": ["0", "255", "+3", "010"],
    "int8": ["-128", "127", "-0"],
    "uint64": ["18446744073709551615", "0"],
    "bool": ["0", "1", "-3", "00", "12"],
}


@pytest.mark.parametrize("target", ["float", "double", "float16", "int64", "uint8", "int8", "uint64", "bool"])
def test_strings_to_numbers_as_onnxruntime_reads_them(target: str) -> None:
    from tests.helpers import assert_matches_oracle, strs

    texts = LITERALS.get(target, LITERALS["float"])
    assert_matches_oracle(OracleCase(OP, {"to": CODE[target]}, [strs(*texts)], (9, 13), oracle="ort"), 13)


def test_strings_convert_to_and_from_the_ml_dtypes_types() -> None:
    from tests.helpers import strs

    (y,) = run("ai.onnx", OP, 25, [strs("1.5", "-448", "1e9", "0.3")], to=CODE["float8e4m3fn"], saturate=1)
    assert y.astype(np.float32).tolist() == [1.5, -448.0, 448.0, 0.3125]
    (y,) = run("ai.onnx", OP, 25, [strs("-8", "7", "+3")], to=CODE["int4"], saturate=1)
    assert y.astype(np.int8).tolist() == [-8, 7, 3]
    with pytest.raises(ValueError, match="outside int4"):
        run("ai.onnx", OP, 25, [strs("8")], to=CODE["int4"], saturate=1)
    x = np.array([1.5, -0.25, 3.0], dtype=numpy_dtype("bfloat16"))
    (text,) = run("ai.onnx", OP, 25, [x], to=CODE["string"], saturate=1)
    assert text.tolist() == ["1.5", "-0.25", "3"]


@pytest.mark.parametrize("text", ["abc", "0x10", "1_000", "", "true"])
def test_non_numeric_strings_are_undefined(text: str) -> None:
    from tests.helpers import strs

    with pytest.raises(ValueError, match="undefined"):
        run("ai.onnx", OP, 13, [strs(text)], to=CODE["float"])


def test_onnx_reference_writes_numpy_text_which_the_doc_describes() -> None:
    x = np.array([1.0, np.inf], dtype=np.float32)
    model, feeds = _single(x, CODE["string"], 13)
    assert run_onnx_reference(model, feeds)[0].tolist() == ["1.0", "inf"]
    assert run_onnxruntime(model, feeds)[0].tolist() == ["1", "INF"]
    assert run("ai.onnx", OP, 13, [x], to=CODE["string"])[0].tolist() == ["1", "INF"]


def _single(x: np.ndarray, to: int, opset: int) -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:
    from tests.helpers import one_node_model

    return one_node_model(OP, opset, [x], {"to": to}, 1)
