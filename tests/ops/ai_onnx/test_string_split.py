"""StringSplit: the kernel against onnx.reference and onnxruntime where they follow the registry's reading, the
readings where they do not (each `when` holds exactly there), the shape formulas against onnx's shape inference."""

from __future__ import annotations

import numpy as np
import pytest

from conformance.runner.readings import followed_reading
from tests.helpers import (
    OracleCase,
    all_since,
    one_node_model,
    oracle_tests,
    run,
    run_onnx_reference,
    run_onnxruntime,
    shape_case,
    shape_tests,
    strs,
    version,
)

OP = "StringSplit"
V = all_since(OP)
WORDS = strs("a,b,,c", ",x,", "noop", ",,", "é,中", shape=(5,))
SPACED = strs(" a  b c ", "one", "  ", "x y", shape=(2, 2))

CASES = [
    OracleCase(OP, {"delimiter": ","}, [WORDS], V, n_out=2, id="comma"),
    OracleCase(OP, {"delimiter": ",", "maxsplit": 1}, [WORDS], V, n_out=2, id="maxsplit"),
    OracleCase(OP, {"delimiter": ",", "maxsplit": 0}, [WORDS], V, n_out=2, id="maxsplit0"),
    OracleCase(OP, {"delimiter": ",", "maxsplit": -1}, [WORDS], V, n_out=2, id="maxsplit_negative"),
    OracleCase(OP, {"delimiter": "ab"}, [strs("xabyabab", "ab", "a")], V, n_out=2, id="long_delimiter"),
    OracleCase(OP, {}, [SPACED], V, n_out=2, id="whitespace"),
    OracleCase(OP, {"delimiter": ""}, [SPACED], V, n_out=2, id="empty_delimiter"),
    OracleCase(OP, {"maxsplit": 1}, [strs(" a b c", "a  b  c")], V, n_out=2, id="whitespace_maxsplit"),
    OracleCase(OP, {"maxsplit": 1}, [strs(" a b c ")], V, n_out=2, id="remainder_trimmed", oracle="ort"),
    OracleCase(OP, {}, [strs("a\tb\nc", "\u3000x\x1cy ")], V, n_out=2, id="other_whitespace"),
    OracleCase(OP, {"delimiter": ","}, [strs("", "a,b")], V, n_out=2, id="empty_string"),
    OracleCase(OP, {"delimiter": ","}, [np.empty((2, 0), dtype=object)], V, n_out=2, id="empty_tensor"),
    OracleCase(OP, {}, [strs("x y", shape=())], V, n_out=2, id="scalar", oracle="ort"),
]

test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)

# inputs where a source reads the op otherwise: the reading that names it, and which outputs the source gives
DIFFERENT = [
    ("stringsplit_r1", {}, strs("a\tb", "c d"), run_onnxruntime),
    ("stringsplit_r2", {"delimiter": ","}, strs("", "a,b"), run_onnxruntime),
    ("stringsplit_r3", {"maxsplit": 1}, strs(" a b c ", "d"), run_onnx_reference),
]


@pytest.mark.parametrize(("reading", "attrs", "x", "source"), DIFFERENT, ids=[d[0] for d in DIFFERENT])
def test_each_reading_holds_where_its_source_differs(reading: str, attrs: dict[str, object], x: np.ndarray,
                                                    source: object) -> None:
    v = version("ai.onnx", OP, 20)
    model, feeds = one_node_model(OP, 20, [x], attrs, 2)
    theirs = source(model, feeds)  # type: ignore[operator]
    mine = run("ai.onnx", OP, 20, [x], **attrs)
    assert [y.tolist() for y in theirs] != [y.tolist() for y in mine]
    found = followed_reading(v, [x], {**{"delimiter": None, "maxsplit": None}, **attrs},
                             [list(y.shape) for y in theirs])
    assert found is not None and found.startswith(reading), found


def test_no_reading_holds_where_the_sources_agree() -> None:
    v = version("ai.onnx", OP, 20)
    for attrs, x in (({"delimiter": ","}, WORDS), ({}, SPACED), ({"maxsplit": 1}, strs(" a b c", "x"))):
        full = {**{"delimiter": None, "maxsplit": None}, **attrs}
        y = run("ai.onnx", OP, 20, [x], **attrs)
        assert followed_reading(v, [x], full, [list(a.shape) for a in y]) is None, attrs


SHAPES = [
    shape_case(OP, 20, [[3, 2]], {"delimiter": ","}, n_out=2, dtype=object),
    shape_case(OP, 20, [[]], {"maxsplit": 2}, n_out=2, dtype=object),
    shape_case(OP, 20, [[4, 0]], n_out=2, dtype=object),
]

test_shape_formula_matches_onnx = shape_tests(SHAPES)
