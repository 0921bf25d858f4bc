"""OneHotEncoder: the kernel against onnxruntime (strings, ints, truncated floats, any rank) and onnx.reference
(where it reads the text as we do), the shape formula against onnx, rejected nodes, the float reading."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from opset.formula import Sym
from tests.helpers import (
    OracleCase,
    Seeded,
    inferred,
    oracle_tests,
    rejection_tests,
    run,
    shape_case,
    shape_tests,
    symbolic_shape,
    version,
)

DOMAIN = "ai.onnx.ml"
OP = "OneHotEncoder"
data = Seeded(47)
COLOURS = {"cats_strings": ["red", "green", "blue", "green"]}  # "green" twice: its last position wins
INTS = {"cats_int64s": [3, -1, 0, 7]}
WORDS = np.array([["blue", "pink"], ["green", "red"]], dtype=object)


def case(x: np.ndarray, attrs: dict[str, Any], id: str, oracle: str = "ort") -> OracleCase:
    return OracleCase(OP, attrs, [x], (1,), oracle=oracle, id=id, domain=DOMAIN)


CASES = [
    case(WORDS, COLOURS, "strings"),
    case(data.ints(-2, 9, (3, 4), np.int64), INTS, "int64"),
    case(np.array([3.9, -1.5, -0.5, 7.0, 2.0], np.float32), INTS, "float_truncates"),
    case(np.array([[3.9, -1.5], [0.0, 8.0]]), INTS, "double_truncates"),
    case(data.ints(-2, 9, (2, 2, 3), np.int64), INTS, "rank3"),
    case(np.array(7, np.int64), INTS, "scalar"),
    case(data.ints(-2, 9, (3, 4), np.int64), {**INTS, "zeros": 1}, "int64_ref", oracle="ref"),
    # onnx.reference sizes the new axis by the distinct categories: no repeated one here
    case(WORDS, {"cats_strings": ["red", "green", "blue"]}, "strings_ref", oracle="ref"),
    case(np.array([3, 7], np.int32), INTS, "int32_ref", oracle="ref"),
    case(WORDS, INTS, "strings_with_int_categories"),
]

test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)

SHAPES = [
    shape_case(OP, 1, [[3]], INTS, domain=DOMAIN),
    shape_case(OP, 1, [[2, 5]], COLOURS, domain=DOMAIN),
    shape_case(OP, 1, [[2, 1, 3]], INTS, domain=DOMAIN),
    shape_case(OP, 1, [[]], INTS, domain=DOMAIN),
]

test_shape_formula_matches_onnx = shape_tests(SHAPES)

REJECTED = [
    (shape_case(OP, 1, [[3]], {}, domain=DOMAIN), "onehotencoder_c1"),
    (shape_case(OP, 1, [[3]], {**INTS, **COLOURS}, domain=DOMAIN), "onehotencoder_c1"),
    (shape_case(OP, 1, [np.array([3, 5], np.int64)], {**INTS, "zeros": 0}, domain=DOMAIN), "onehotencoder_c2"),
    (shape_case(OP, 1, [[3]], {**INTS, "zeros": 2}, domain=DOMAIN), "attr_allowed"),
]

test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_zeros_0_fails_on_an_unknown_category() -> None:
    with pytest.raises(ValueError, match="match no category"):
        run(DOMAIN, OP, 1, [WORDS], **COLOURS, zeros=0)


def test_the_float_reading_holds_only_for_a_fraction() -> None:
    v = version(DOMAIN, OP, 1)

    def readings(x: np.ndarray) -> list[str]:
        return [r.reading.id for r in inferred(v, [x], INTS, {"X": x.reshape(-1).tolist()}).readings]

    assert readings(np.array([2.5, 3.0], np.float32)) == ["onehotencoder_r1"]
    assert readings(np.array([2.0, 3.0], np.float32)) == []


def test_symbolic_dims() -> None:
    assert symbolic_shape(OP, 1, [[Sym("N"), 2]], COLOURS, domain=DOMAIN) == ["N", "2", "4"]
