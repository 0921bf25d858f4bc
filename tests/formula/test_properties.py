"""Property tests: generated formulas evaluate or fail cleanly, round-trip through their normalised
text, and agree with an independent integer evaluator; arbitrary text only ever raises FormulaError."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from opset.formula import FormulaError, Sym, Undecided, evaluate, parse

ENV: dict[str, Any] = {"a": 3, "b": -2, "z": 0, "x": 2.5, "S": [4, 1, 3], "T": (2, 5), "s": "ab", "n": None,
                       "N": Sym("N"), "D": [Sym("N"), 2]}
NAMES = sorted(ENV)
BINARY = ["+", "-", "*", "/", "//", "%", "**"]
COMPARE = ["==", "!=", "<", "<=", ">", ">=", "in", "not in"]
CALLS = ["floor", "ceil", "min", "max", "abs", "sum", "prod", "all", "any", "len", "range", "rank", "broadcast", "int"]

leaves = st.one_of(
    st.integers(-5, 300).map(str),
    st.sampled_from(["0.5", "2.0", "1e999", "'ab'", "''", "True", "False", "None"]),
    st.sampled_from(NAMES),
)


def _combine(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    pair = st.tuples(children, children)
    return st.one_of(
        st.tuples(children, st.sampled_from(BINARY), children).map(lambda t: f"({t[0]}) {t[1]} ({t[2]})"),
        st.tuples(st.sampled_from(["-", "+", "not "]), children).map(lambda t: f"{t[0]}({t[1]})"),
        st.tuples(children, st.sampled_from(["and", "or"]), children).map(lambda t: f"({t[0]}) {t[1]} ({t[2]})"),
        st.tuples(children, st.lists(st.tuples(st.sampled_from(COMPARE), children), min_size=1, max_size=2)).map(
            lambda t: f"({t[0]})" + "".join(f" {op} ({c})" for op, c in t[1])
        ),
        st.tuples(children, children, children).map(lambda t: f"({t[0]}) if ({t[1]}) else ({t[2]})"),
        pair.map(lambda t: f"({t[0]})[{t[1]}]"),
        st.tuples(children, st.sampled_from(["1:", ":-1", "::-1", "::2", "a:"])).map(lambda t: f"({t[0]})[{t[1]}]"),
        st.lists(children, max_size=3).map(lambda items: "[" + ", ".join(items) + "]"),
        st.lists(children, max_size=3).map(lambda items: "(" + "".join(f"{i}, " for i in items) + ")"),
        pair.map(lambda t: f"[({t[0]}) for i in ({t[1]})]"),
        st.tuples(children, children, children).map(lambda t: f"[({t[0]}) for i in ({t[1]}) if ({t[2]})]"),
        pair.map(lambda t: f"sum(({t[0]}) for i in range(3) for j in ({t[1]}))"),
        st.tuples(st.sampled_from(CALLS), st.lists(children, min_size=1, max_size=3)).map(
            lambda t: f"{t[0]}({', '.join(t[1])})"
        ),
        st.sampled_from(["all", "any"]).flatmap(lambda f: children.map(lambda c: f"{f}(i > ({c}) for i in S)")),
    )


formulas = st.recursive(leaves, _combine, max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(formulas)
def test_generated_formulas_evaluate_or_fail_cleanly(text: str) -> None:
    try:
        evaluate(text, ENV)
    except FormulaError as error:
        assert not error.message.startswith("internal error"), error.message
    except Undecided:
        pass


@settings(max_examples=300, deadline=None)
@given(formulas)
def test_normalised_text_round_trips(text: str) -> None:
    try:
        formula = parse(text)
    except FormulaError as error:
        assert "deeper than" in error.message or "limit is" in error.message, error.message
        return
    normalised = str(formula)
    again = parse(normalised)
    assert again == formula
    assert str(again) == normalised


# An independent check: integer-only trees computed by plain Python ints.
Tree = int | tuple[Any, ...]
_INT_OPS: dict[str, Callable[[int, int], int]] = {
    "+": lambda p, q: p + q, "-": lambda p, q: p - q, "*": lambda p, q: p * q,
    "//": lambda p, q: p // q, "%": lambda p, q: p % q, "**": lambda p, q: p**q,
}
int_trees = st.recursive(
    st.integers(-20, 20),
    lambda children: st.one_of(
        st.tuples(st.sampled_from(sorted(_INT_OPS)), children, children),
        st.tuples(st.just("neg"), children),
        st.tuples(st.sampled_from(["min", "max"]), children, children),
        st.tuples(st.just("abs"), children),
    ),
    max_leaves=10,
)


def _text(tree: Tree) -> str:
    if isinstance(tree, int):
        return f"({tree})"
    match tree:
        case ("neg", operand):
            return f"(-{_text(operand)})"
        case ("abs", operand):
            return f"abs({_text(operand)})"
        case ("min" | "max" as function, left, right):
            return f"{function}({_text(left)}, {_text(right)})"
    op, left, right = tree
    return f"({_text(left)} {op} {_text(right)})"


def _expected(tree: Tree) -> int | None:
    """The value by plain Python, or None where the formula must raise FormulaError."""
    if isinstance(tree, int):
        return tree
    values = [_expected(child) for child in tree[1:]]
    if any(value is None for value in values):
        return None
    match tree[0], values:
        case "neg", [operand]:
            result = -operand  # type: ignore[operator]
        case "abs", [operand]:
            result = abs(operand)  # type: ignore[arg-type]
        case "min", [left, right]:
            result = min(left, right)  # type: ignore[type-var]
        case "max", [left, right]:
            result = max(left, right)  # type: ignore[type-var]
        case op, [left, right]:
            if (op in ("//", "%") and right == 0) or (op == "**" and not 0 <= right <= 64):  # type: ignore[operator]
                return None
            if op == "**" and abs(left) > 1 and right * (abs(left).bit_length() - 1) > 256:  # type: ignore[arg-type, operator]
                return None
            result = _INT_OPS[op](left, right)  # type: ignore[arg-type]
    return None if abs(result) > 2**256 else result


@settings(max_examples=400, deadline=None)
@given(int_trees)
def test_integer_formulas_agree_with_python(tree: Tree) -> None:
    expected = _expected(tree)
    text = _text(tree)
    normalised = str(parse(text))
    assert parse(normalised) == parse(text), normalised
    if expected is None:
        try:
            evaluate(text, {})
        except FormulaError:
            return
        raise AssertionError(f"{text} should have been refused")
    assert evaluate(text, {}) == expected
    assert evaluate(normalised, {}) == expected


tokens = st.sampled_from(["a", "1", "(", ")", "[", "]", ",", "+", "-", "*", "**", "/", "for", "in", "if", "else",
                          " ", "not", "lambda", ":", ".", "_", "__class__", "'", "max", "range", "value", "=", "<"])


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=60), st.lists(tokens, max_size=30).map("".join)))
def test_arbitrary_text_only_raises_formula_error(text: str) -> None:
    try:
        formula = parse(text)
    except FormulaError:
        return
    assert parse(str(formula)) == formula
