"""The formula language on text drawn from its grammar and beyond: every operator and function, deep nesting, huge
exponents, ranges and repetitions, comprehensions, subscripts and slices, unicode, plain garbage.

Parsing gives a Formula or FormulaError; evaluating gives a value, FormulaError or Undecided; nothing else, and
no answer is bought with a huge allocation (a list of 10^12 items is a FormulaError). What parses prints to text
that parses back to the same formula."""

from __future__ import annotations

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from opset.formula import FormulaError, Sym, Undecided, parse
from opset.formula.nodes import FUNCTION_NAMES
from tests.helpers.fuzz import fuzz

pytestmark = pytest.mark.fuzz

NAMES = ["x", "n", "S", "axes", "r", "s", "f", "none", "sym", "shape", "nested", "é", "Ω"]
ENV = {"x": 3, "n": -2, "S": [4, 5, Sym("N")], "axes": [0, -1], "r": 3, "s": "SAME_UPPER", "f": 0.5, "none": None,
       "sym": Sym("batch"), "shape": [2**40, 2**40], "nested": [[1, 2], [3, [4]]], "é": 1, "Ω": [1]}
BINARY = ["+", "-", "*", "/", "//", "%", "**", "==", "!=", "<", "<=", ">", ">=", "in", "not in", "and", "or"]
ATOMS = st.one_of(
    st.sampled_from(NAMES),
    st.integers(-(2**70), 2**70).map(str),
    st.sampled_from(["0", "1", "-1", "10**12", "2**64", "10**100", "0.5", "1e308", "'SAME_UPPER'", "''", "None",
                     "True", "False", "[]", "[1, 2, 3]", "range(10**12)", "[0] * 10**12", "'ab' * 10**9"]),
    st.floats(allow_nan=False).map(repr),
)


def _call(args: list[str], name: str) -> str:
    return f"{name}({', '.join(args)})"


EXPRESSIONS = st.recursive(
    ATOMS,
    lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(BINARY), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(st.sampled_from(["-", "+", "not "]), inner).map(lambda t: f"{t[0]}({t[1]})"),
        st.tuples(st.lists(inner, max_size=3), st.sampled_from([*sorted(FUNCTION_NAMES), "eval", "open"])).map(
            lambda t: _call(*t)),
        st.tuples(inner, inner, inner).map(lambda t: f"({t[0]} if {t[1]} else {t[2]})"),
        st.tuples(inner, inner).map(lambda t: f"{t[0]}[{t[1]}]"),
        st.tuples(inner, st.sampled_from(["", "1", "-1", "x"]), st.sampled_from(["", "2", "-1"]),
                  st.sampled_from(["", ":2", ":-1", ":0"])).map(lambda t: f"{t[0]}[{t[1]}:{t[2]}{t[3]}]"),
        st.lists(inner, max_size=4).map(lambda xs: f"[{', '.join(xs)}]"),
        st.lists(inner, min_size=2, max_size=3).map(lambda xs: f"({', '.join(xs)})"),
        st.tuples(inner, inner, inner).map(lambda t: f"[{t[0]} for i in {t[1]} if {t[2]}]"),
        st.tuples(inner, inner).map(lambda t: f"all({t[0]} for i in range({t[1]}) for j in range(i))"),
    ),
    max_leaves=12,
)
NESTED = st.tuples(st.sampled_from(["(", "[", "-", "not ", "abs(", "[1, ", "x[", "2**"]),
                   st.integers(10, 3000)).map(lambda t: _nest(*t))


def _nest(opener: str, depth: int) -> str:
    closer = {"(": ")", "[": "]", "abs(": ")", "[1, ": "]", "x[": "]"}.get(opener, "")
    return opener * depth + "1" + closer * depth


def _evaluate_text(text: str) -> str:
    try:
        formula = parse(text)
    except FormulaError as e:
        assert str(e) and "\n" not in e.message
        return "refused"
    again = parse(str(formula))
    assert again == formula, f"{text!r} prints as {str(formula)!r}, which parses to something else"
    try:
        formula.evaluate(ENV, {"x": [1, 2, 3], "S": [[1], [2]]})
    except FormulaError as e:
        assert str(e)
        return "formula error"
    except Undecided:
        return "undecided"
    return "value"


@fuzz(1000)
@given(text=EXPRESSIONS)
def test_grammar_drawn_formulas(text: str) -> None:
    event(_evaluate_text(text))


@fuzz(200)
@given(text=NESTED)
def test_deep_nesting(text: str) -> None:
    event(_evaluate_text(text))


@fuzz(400)
@given(text=st.text(max_size=60))
def test_any_text(text: str) -> None:
    event(_evaluate_text(text))


@pytest.mark.parametrize("text", ["[0] * 10**12", "range(10**12)", "len(range(10**12))", "sum(range(10**9))",
                                  "2 ** 2 ** 2 ** 2 ** 2", "10 ** 10 ** 10", "[i for i in range(10**6) for j in "
                                  "range(10**6)]", "shape[0] * shape[1] * [1]", "prod(shape) * [0]"])
def test_huge_requests_are_errors_not_allocations(text: str) -> None:
    with pytest.raises((FormulaError, Undecided)):
        parse(text).evaluate(ENV)
