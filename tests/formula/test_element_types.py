"""Element types in formulas: `dtype(X)` (an input's element type) and `is_integer`, `is_float`, `bits`, `tensor`
over an element type given by name, tensor type or DataType code; `per_tensor` of quantization shapes. Run both
compiled and walked (conftest)."""

from __future__ import annotations

from typing import Any

import pytest

from opset.dtypes import CODE_TO_ELEMENT, ELEMENT_BITS, ELEMENT_TYPES, FLOAT_ELEMENTS, INTEGER_ELEMENTS
from opset.formula import FormulaError, Sym, Undecided, evaluate, parse
from opset.formula.functions import FUNCTIONS
from opset.formula.graph_value import TYPES_KEY
from opset.formula.nodes import FUNCTION_NAMES, INPUT_FORMS

ENV: dict[str, Any] = {"A": [2, 3], "B": [3], "V": [[1], [2]], "to": 10, "name": "int4",
                       TYPES_KEY: {"A": "tensor(int64)", "B": "tensor(float8e8m0)", "V": ["tensor(uint8)",
                                                                                           "tensor(bool)"]}}


@pytest.mark.parametrize(("text", "expected"), [
    ("dtype(A)", "int64"), ("dtype(B)", "float8e8m0"), ("dtype(V)", ["uint8", "bool"]),
    ("is_integer(dtype(A))", True), ("is_float(dtype(A))", False), ("is_float(type_of(B))", True),
    ("bits(dtype(A))", 64), ("bits(to)", 16), ("bits(name)", 4), ("bits('tensor(float4e2m1)')", 4),
    ("[bits(t) for t in dtype(V)]", [8, 8]), ("is_integer(dtype(V)[1])", False),
    ("tensor(to)", "tensor(float16)"), ("tensor(dtype(A))", "tensor(int64)"),
    ("tensor('tensor(bool)')", "tensor(bool)"),
    ("bits(to) == bits(dtype(A)) or is_float(to)", True),
])
def test_element_type_functions(text: str, expected: Any) -> None:
    assert evaluate(text, ENV) == expected


def test_every_element_type_has_its_width_and_at_most_one_kind() -> None:
    assert set(ELEMENT_BITS) == set(ELEMENT_TYPES) - {"string"}
    assert not INTEGER_ELEMENTS & FLOAT_ELEMENTS
    assert INTEGER_ELEMENTS | FLOAT_ELEMENTS <= set(ELEMENT_TYPES)
    for code, name in CODE_TO_ELEMENT.items():
        assert evaluate("is_integer(c) == is_integer(n)", {"c": code, "n": name})
        if name != "string":
            assert evaluate("bits(c)", {"c": code}) == ELEMENT_BITS[name]


def test_an_unknown_input_type_leaves_the_formula_undecided() -> None:
    with pytest.raises(Undecided):
        evaluate("is_integer(dtype(A))", {"A": [2]})  # no types given
    with pytest.raises(Undecided):
        evaluate("dtype(A)", {"A": [2], TYPES_KEY: {"A": None}})
    with pytest.raises(Undecided):
        evaluate("dtype(S)", {"S": [[2]], TYPES_KEY: {"S": "seq(tensor(float))"}})  # no tensor: no element type
    assert evaluate("not is_integer(dtype(A)) or 1 > 0", {"A": [2]}) is True  # `or` skips the undecided side


@pytest.mark.parametrize(("text", "words"), [
    ("is_integer(A)", "dtype(X)"),  # a shape is no type
    ("bits('string')", "no fixed width"), ("bits(99)", "no ONNX element type code"),
    ("is_float('tensor(foo)')", "no element type"), ("tensor(True)", "bool"), ("bits()", "exactly one"),
])
def test_what_is_no_element_type_is_an_error(text: str, words: str) -> None:
    with pytest.raises(FormulaError, match=words.replace("(", r"\(").replace(")", r"\)")):
        evaluate(text, ENV)


@pytest.mark.parametrize("text", ["dtype(1)", "dtype(A, B)", "dtype()", "dtype(A[0])"])
def test_dtype_takes_one_input_name(text: str) -> None:
    with pytest.raises(FormulaError, match="dtype"):
        parse(text)


@pytest.mark.parametrize(("shapes", "expected"), [
    ("[], []", True), ("[1], []", True), ("[], [1]", True), ("[1], [1]", True), ("[1], None", True), ("[]", True),
    ("[2], [2]", False), ("[1, 1], []", False), ("[1], [3]", False), ("[0]", False),
])
def test_per_tensor_is_one_element_at_rank_zero_or_one(shapes: str, expected: bool) -> None:
    assert evaluate(f"per_tensor({shapes})", {}) is expected


def test_per_tensor_over_a_symbolic_dim_is_undecided_unless_another_shape_decides() -> None:
    n = Sym("N")
    with pytest.raises(Undecided):
        evaluate("per_tensor([N], [])", {"N": n})
    assert evaluate("per_tensor([N], [2])", {"N": n}) is False
    with pytest.raises(FormulaError, match="shapes"):
        evaluate("per_tensor(3)", {})


def test_the_vocabulary_is_one_table_and_its_implementations() -> None:
    """Every callable name is in FUNCTION_NAMES, implemented by FUNCTIONS or read by the evaluator as an input form
    (what a compiler of formulas maps, name by name)."""
    assert {"dtype", "is_integer", "is_float", "bits", "tensor", "per_tensor"} <= FUNCTION_NAMES
    assert INPUT_FORMS == {"value", "type_of", "dtype"}
    assert FUNCTION_NAMES == set(FUNCTIONS) | INPUT_FORMS
