"""String tensors through the conformance machinery: drawn (object arrays of str, repeats, empty and non-ASCII
text), compared exactly, normalised where backends hand them over, stored in repro bundles without pickle, drawn
for every op whose types allow them; and the kernels of ops that mostly compute with numbers, on strings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance.backends.protocol import Backend, BackendCall
from conformance.compare import EXACT, compare_arrays
from conformance.kernels.ai_onnx._strings import from_strings, to_strings
from conformance.registry import current_registry
from conformance.runner.repro import load_bundle, write_bundle
from conformance.runner.settings import CheckSettings
from conformance.strategies import cell_dtypes, fill_array, op_cases
from conformance.strategies.strings import NON_ASCII, numeric_literals
from conformance.string_arrays import as_strings, normalized
from opset.cells import allowed_elements
from tests.helpers import OracleCase, assert_matches_oracle, run, strs

# ---- drawing ------------------------------------------------------------------------------------------------


def test_string_arrays_are_object_arrays_of_str_reproducible_from_their_seed() -> None:
    a = fill_array(7, "string", [3, 4])
    assert a.dtype == object and a.shape == (3, 4)
    assert all(isinstance(s, str) for s in a.reshape(-1).tolist())
    assert a.tolist() == fill_array(7, "string", [3, 4]).tolist()


def test_draws_repeat_values_and_meet_empty_and_non_ascii_text() -> None:
    draws = [fill_array(seed, "string", [12]).tolist() for seed in range(200)]
    assert sum(len(set(d)) < len(d) for d in draws) > 150  # repeats: Unique, Equal and stop words meet them
    flat = [s for d in draws for s in d]
    assert "" in flat
    assert any(any(c in NON_ASCII for c in s) for s in flat)
    assert any(any(ord(c) > 0xFFFF for c in s) for s in flat)  # beyond the BMP: four UTF-8 bytes
    assert fill_array(3, "string", []).shape == ()


@pytest.mark.parametrize("target", ["float16", "float", "double", "int8", "uint8", "int64", "uint64", "bool",
                                    "bfloat16", "float8e4m3fn", "float8e8m0", "float4e2m1", "int4", "uint2"])
def test_numeric_literals_read_as_their_target(target: str) -> None:
    from conformance.element_types import integer_range

    for seed in range(20):
        low, high = (-300, 300) if target in ("float16", "float", "double", "bfloat16", "float8e4m3fn",
                                              "float8e8m0", "float4e2m1", "bool") else integer_range(target)
        texts = numeric_literals(seed, [10], target, max(low, -300), min(high, 300),
                                 specials=target in ("float16", "float", "double"), positive=target == "float8e8m0")
        from_strings("Cast", texts, target)  # raises on any literal the target does not read


def test_the_string_cell_is_drawn_for_every_op_whose_primary_type_allows_strings() -> None:
    versions = [v for v in current_registry().all_versions()
                if any("string" in allowed_elements(v, p.type) for p in v.inputs[:1])]
    assert len(versions) > 100
    for v in versions:
        drawable, unsupported = cell_dtypes(v)
        assert "string" in drawable and "string" not in unsupported, v.signature


def _version(op: str, since: int) -> Any:
    return current_registry().op("ai.onnx", op).version(since)


@pytest.mark.parametrize(("op", "since", "attribute", "allowed"), [
    ("Resize", 19, "mode", {"nearest"}), ("GridSample", 22, "mode", {"nearest"}), ("Upsample", 9, "mode", {"nearest"}),
    ("ScatterElements", 18, "reduction", {"none", "add", "max", "min"}),
    ("ScatterND", 16, "reduction", {"none", "add"}),
])
def test_string_cells_draw_only_modes_that_need_no_arithmetic(op: str, since: int, attribute: str,
                                                              allowed: set[str]) -> None:
    v = _version(op, since)
    seen: set[str] = set()

    @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(st.data())
    def draw(data: st.DataObject) -> None:
        case = data.draw(op_cases(v, "string"))
        seen.add(case.attributes[attribute])

    draw()
    assert seen and seen <= allowed, seen


# ---- comparing, normalising, storing --------------------------------------------------------------------------


def test_strings_compare_exactly() -> None:
    a = strs("a", "é", "")
    assert compare_arrays(a, strs("a", "é", ""), EXACT).ok
    result = compare_arrays(a, strs("a", "e", ""), EXACT)
    assert not result.ok and "1 of 3 strings differ" in result.problem and "'é' vs 'e'" in result.problem
    stray = np.array(["a", b"\xc3\xa9", ""], dtype=object)
    result = compare_arrays(stray, a, EXACT)
    assert not result.ok and "bytes" in result.problem
    assert not compare_arrays(a, strs("a", "é", "", ""), EXACT).ok


def test_string_outputs_are_normalised_where_a_backend_hands_them_over() -> None:
    class Raw:
        def run(self, node: Any, inputs: list[np.ndarray | None]) -> list[np.ndarray]:
            return [np.array(["ab", "é"]), np.array([b"x", b"y"], dtype=object), np.array([1.5])]

    from onnx import helper

    node = helper.make_node("Identity", ["x"], ["a", "b", "c"])
    call = BackendCall(node_bytes=node.SerializeToString(), inputs=[], opset_imports={"": 13}, output_dtypes=[],
                       domain="ai.onnx", op="Identity", version=13, dtypes=["string"])
    u, b, f = Backend(Raw(), "raw").run(call)
    assert u.dtype == object and u.tolist() == ["ab", "é"]
    assert b.dtype == object and b.tolist() == ["x", "y"]
    assert f.dtype == np.float64
    with pytest.raises(TypeError):
        as_strings(np.array([1, "a"], dtype=object))
    assert normalized(np.array([1, 2])).dtype.kind == "i"


@settings(max_examples=5, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(data=st.data())
def test_a_string_case_round_trips_through_a_repro_bundle_without_pickle(tmp_path_factory: Any,
                                                                         data: st.DataObject) -> None:
    from conformance.runner.checks import expected_outputs

    case = data.draw(op_cases(_version("StringSplit", 20), "string"))
    expected = expected_outputs(case)
    assert expected is not None
    folder: Path = tmp_path_factory.mktemp("repro")
    bundle, _ = write_bundle(case, expected, CheckSettings(spec="reference", timeout=5.0, repro_dir=folder), "test")
    assert not list(bundle.glob("*.np[yz]"))  # values are TensorProtos, never pickled object arrays
    loaded, again, _ = load_bundle(bundle)
    assert [x.tolist() for x in loaded.inputs if x is not None] == [x.tolist() for x in case.inputs if x is not None]
    assert again is not None and [y.dtype for y in again] == [y.dtype for y in expected]
    assert [y.tolist() for y in again] == [y.tolist() for y in expected]


# ---- Cast's text formats ----------------------------------------------------------------------------------------


def test_numbers_are_written_as_onnxruntime_writes_them() -> None:
    x = np.array([0.0, -0.0, 1.0, 2.5, 1e8, 123456789.0, 1e-5, np.inf, -np.inf, np.nan, 1 / 3], dtype=np.float64)
    assert to_strings(x).tolist() == ["0", "-0", "1", "2.5", "1e+08", "1.2345679e+08", "1e-05", "INF", "-INF",
                                      "NaN", "0.33333333"]
    assert to_strings(np.array([True, False])).tolist() == ["1", "0"]
    assert to_strings(np.array([-5, 2**63 - 1], dtype=np.int64)).tolist() == ["-5", "9223372036854775807"]


def test_strings_read_as_numbers_and_the_undefined_ones_are_rejected() -> None:
    got = from_strings("Cast", strs(" 1.5 ", "-INF", "+inf", "nan", "1E3", ".5", "5.", "infinity"), "double")
    assert got.tolist()[:2] == [1.5, -np.inf] and np.isnan(got[3]) and got.tolist()[4:] == [1000.0, 0.5, 5.0, np.inf]
    assert from_strings("Cast", strs("7", "-0", "+3", "007"), "int8").tolist() == [7, 0, 3, 7]
    assert from_strings("Cast", strs("0", "00", "-2"), "bool").tolist() == [False, False, True]
    for text, target in (("abc", "float"), ("0x10", "double"), ("1_000", "float"), ("2.5", "int32"),
                         ("300", "uint8"), ("-1", "uint64"), ("", "float"), ("true", "bool"), ("١", "int64")):
        with pytest.raises(ValueError, match="undefined"):
            from_strings("Cast", strs(text), target)


# ---- kernels of number ops on strings -----------------------------------------------------------------------


def test_zero_of_a_string_tensor_is_the_empty_string() -> None:
    (lower,) = run("ai.onnx", "Trilu", 14, [strs("a", "b", "c", "d", shape=(2, 2)), None], upper=0)
    assert lower.tolist() == [["a", ""], ["c", "d"]]
    (padded,) = run("ai.onnx", "Pad", 13, [strs("a", "b"), np.array([1, 2], dtype=np.int64), None])
    assert padded.tolist() == ["", "a", "b", "", ""]
    (cropped,) = run("ai.onnx", "CenterCropPad", 18, [strs("a", "b"), np.array([5], dtype=np.int64)])
    assert cropped.tolist() == ["", "a", "b", "", ""]
    grid = np.array([[[[-1.0, -1.0], [5.0, 5.0]]]], dtype=np.float32)  # a corner, then far outside (zeros)
    (sampled,) = run("ai.onnx", "GridSample", 22, [strs("a", "b", "c", "d", shape=(1, 1, 2, 2)), grid],
                     mode="nearest", align_corners=1)
    assert sampled.tolist() == [[[["a", ""]]]]


def test_col2im_concatenates_overlapping_blocks_in_block_order() -> None:
    # 1-D image of 3 from blocks of 2 with stride 1: blocks [x0, x1] and [y0, y1] overlap at position 1
    cols = strs("x0", "y0", "x1", "y1", shape=(1, 2, 2))  # [N, C * block, L]: column l is block l
    (image,) = run("ai.onnx", "Col2Im", 18, [cols.reshape(1, 2, 2), np.array([3, 1], dtype=np.int64),
                                             np.array([2, 1], dtype=np.int64)])
    assert image.reshape(-1).tolist() == ["x0", "x1y0", "y1"]


def test_a_string_scalar_gathered_is_a_0d_string_tensor() -> None:
    (y,) = run("ai.onnx", "Gather", 13, [strs("a", "b"), np.array(1, dtype=np.int64)])
    assert y.dtype == object and y.shape == () and y.item() == "b"


def test_string_reductions_concatenate_and_compare_and_do_not_multiply() -> None:
    data, idx, upd = strs("a", "b"), np.array([0, 0], dtype=np.int64), strs("x", "y")
    assert run("ai.onnx", "ScatterElements", 18, [data, idx, upd], reduction="add")[0].tolist() == ["axy", "b"]
    assert run("ai.onnx", "ScatterElements", 18, [data, idx, upd], reduction="max")[0].tolist() == ["y", "b"]
    assert run("ai.onnx", "ScatterElements", 18, [data, idx, upd], reduction="min")[0].tolist() == ["a", "b"]
    with pytest.raises(ValueError, match="mul"):
        run("ai.onnx", "ScatterElements", 18, [data, idx, upd], reduction="mul")
    for op, since, extra in (("Resize", 19, {"mode": "linear"}), ("Upsample", 9, {"mode": "linear"})):
        scales = np.array([1.0, 2.0], dtype=np.float32)
        inputs = [strs("a", "b", shape=(1, 2)), None, scales] if op == "Resize" else [strs("a", "b", shape=(1, 2)),
                                                                                      scales]
        with pytest.raises(ValueError, match="strings is undefined"):
            run("ai.onnx", op, since, inputs, **extra)


WORDS = strs("b", "a", "", "b", "é", "a", shape=(2, 3))
ORACLES = [
    OracleCase("Unique", {}, [WORDS.reshape(-1)], (11,), n_out=4, oracle="ort", id="unique"),
    OracleCase("Unique", {"sorted": 0}, [WORDS.reshape(-1)], (11,), n_out=4, oracle="ort", id="unique_unsorted"),
    OracleCase("Equal", {}, [WORDS, strs("b", "x", "")], (19,), oracle="ort", id="equal"),
    OracleCase("Where", {}, [np.array([True, False, True]), WORDS, strs("z")], (16,), oracle="ort", id="where"),
    OracleCase("ScatterElements", {"reduction": "add"}, [strs("a", "b"), np.array([0, 0, 1], dtype=np.int64),
                                                          strs("x", "y", "z")], (16,), oracle="ort", id="scatter_add"),
    OracleCase("OneHot", {}, [np.array([0, 2], dtype=np.int64), np.array(3, dtype=np.int64), strs("off", "on")],
               (11,), oracle="ort", id="one_hot"),
    OracleCase("Compress", {"axis": 1}, [WORDS, np.array([True, False, True])], (11,), oracle="ort", id="compress"),
    OracleCase("NonZero", {}, [WORDS], (13,), id="nonzero_is_non_empty"),
    OracleCase("Upsample", {"mode": "nearest"}, [WORDS, np.array([1.0, 2.0], dtype=np.float32)], (9,), id="upsample"),
    OracleCase("Concat", {"axis": 0}, [WORDS, strs("p", "q", "r", shape=(1, 3))], (13,), oracle="ort", id="concat"),
    OracleCase("Transpose", {}, [WORDS], (13,), oracle="ort", id="transpose"),
    OracleCase("Tile", {}, [WORDS, np.array([2, 1], dtype=np.int64)], (13,), oracle="ort", id="tile"),
]


@pytest.mark.parametrize("case", ORACLES, ids=lambda c: c.id)
def test_kernels_on_strings_match_the_oracles(case: OracleCase) -> None:
    assert_matches_oracle(case, case.since[0])
