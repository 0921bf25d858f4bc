"""Parsing: the whitelist, normalised text, the facts a Formula reports, and the parse-time bounds."""

from __future__ import annotations

import pytest

from opset.formula import Formula, FormulaError, parse


@pytest.mark.parametrize(
    ("text", "normalised"),
    [
        ("a+b", "a + b"),
        ("(a - b) - c", "a - b - c"),
        ("a - (b - c)", "a - (b - c)"),
        ("a * (b + c)", "a * (b + c)"),
        ("(a * b) + c", "a * b + c"),
        ("-x ** 2", "-x ** 2"),
        ("(-x) ** 2", "(-x) ** 2"),
        ("a ** (b ** c)", "a ** b ** c"),
        ("(a ** b) ** c", "(a ** b) ** c"),
        ("2 ** -x", "2 ** -x"),
        ("-(a * b)", "-(a * b)"),
        ("not (a and b)", "not (a and b)"),
        ("(a and b) and c", "(a and b) and c"),
        ("a and (b or c)", "a and (b or c)"),
        ("(a < b) < c", "(a < b) < c"),
        ("a<b<=c", "a < b <= c"),
        ("x not in  [1,2]", "x not in [1, 2]"),
        ("(a if c else b)+1", "(a if c else b) + 1"),
        ("a if c else (b if d else e)", "a if c else b if d else e"),
        ("(a if c else b) if d else e", "(a if c else b) if d else e"),
        ("floor( x/2 )", "floor(x / 2)"),
        ("[x for i in range(r) if c]", "[x for i in range(r) if c]"),
        ("sum((x for x in S))", "sum(x for x in S)"),
        ("max((x for x in S), 3)", "max((x for x in S), 3)"),
        ("S[1:]", "S[1:]"),
        ("S[::-1]", "S[::-1]"),
        ("S[-1]", "S[-1]"),
        ("(a + b)[0]", "(a + b)[0]"),
        ("(1,)", "(1,)"),
        ("()", "()"),
        ('"text"', "'text'"),
        ("1e999", "1e999"),
        ("[a for a in (x if c else y)]", "[a for a in (x if c else y)]"),
        ("value(X)", "value(X)"),
    ],
)
def test_normalised_text(text: str, normalised: str) -> None:
    formula = parse(text)
    assert str(formula) == normalised
    assert parse(normalised) == formula
    assert str(parse(normalised)) == normalised


def test_structural_equality_ignores_layout() -> None:
    assert parse("(a+b)*c") == parse("( a + b ) * c")
    assert hash(parse("(a+b)*c")) == hash(parse("(a + b) * c"))
    assert parse("a - b - c") != parse("a - (b - c)")
    assert parse("1") != parse("1.0")
    assert parse("1") != parse("True")


def test_original_text_is_kept() -> None:
    assert parse("a+b").text == "a+b"


def test_names_exclude_comprehension_variables_and_functions() -> None:
    formula = parse("[N, C] + [floor(S[i] / k[i]) for i in range(r) if i in axes]")
    assert formula.names == frozenset({"N", "C", "S", "k", "r", "axes"})
    assert formula.calls == frozenset({"floor", "range"})
    assert not formula.uses_value


def test_comprehension_iterable_is_in_the_outer_scope() -> None:
    assert parse("[i for i in i]").names == frozenset({"i"})
    assert parse("[j for i in S for j in i]").names == frozenset({"S"})


def test_uses_value() -> None:
    formula = parse("[len(value(shape))]")
    assert formula.uses_value
    assert "value" in formula.calls


def test_function_names_may_be_used_as_plain_names() -> None:
    assert parse("min <= max").names == frozenset({"min", "max"})


def test_parse_is_cached() -> None:
    assert parse("a + 1") is parse("a + 1")
    assert isinstance(parse("a + 1"), Formula)


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("x.y", "attribute access"),
        ("().__class__", "attribute access"),
        ("__import__('os')", "__import__"),
        ("lambda: 1", "lambda"),
        ("open('x')", "unknown function 'open'"),
        ("exec('1')", "unknown function 'exec'"),
        ("eval('1')", "unknown function 'eval'"),
        ("max(a, key=b)", "keyword arguments"),
        ("max(*a)", "starred"),
        ("__x", "'__x'"),
        ("_x + 1", "'_x'"),
        ("[_ for _ in S]", "'_'"),
        ("(y := 1)", "assignment expression"),
        ("f'{x}'", "f-string"),
        ("{1: 2}", "dict display"),
        ("{1, 2}", "set display"),
        ("{x for x in S}", "set comprehension"),
        ("[*a]", "starred"),
        ("x is None", "Is"),
        ("a | b", "BitOr"),
        ("~a", "Invert"),
        ("a @ b", "MatMult"),
        ("S[1:2, 3]", "slice outside a subscript"),
        ("1j", "complex"),
        ("b'x'", "bytes"),
        ("...", "ellipsis"),
        ("(f)(x)", "unknown function 'f'"),
        ("S[0](1)", "only the formula functions"),
        ("value(S[0])", "value(...) takes exactly one input name"),
        ("value(X, Y)", "value(...) takes exactly one input name"),
        ("[i for (i, j) in S]", "single name"),
        ("", "empty formula"),
        ("1 +", "syntax error"),
        ("import os", "syntax error"),
        ("a\x00b", "syntax error"),
    ],
)
def test_refused_constructs(text: str, named: str) -> None:
    with pytest.raises(FormulaError) as caught:
        parse(text)
    assert named in caught.value.message
    assert caught.value.text is not None


def test_error_column_points_at_the_construct() -> None:
    with pytest.raises(FormulaError) as caught:
        parse("a + b.c")
    assert caught.value.column == 5
    assert "column 5" in str(caught.value)
    with pytest.raises(FormulaError) as caught:
        parse("  a + b.c")
    assert caught.value.column == 7


def _refused_quickly(text: str, message_part: str) -> None:
    # "quickly" means by a size or depth bound before any work, which the message names (no wall-time assert)
    with pytest.raises(FormulaError) as caught:
        parse(text)
    assert message_part in caught.value.message


def test_long_text_refused() -> None:
    _refused_quickly("1 + " * 25_000 + "1", "limit is 4000")


def test_deep_parentheses_refused() -> None:
    _refused_quickly("(" * 1000 + "1" + ")" * 1000, "")


def test_deep_unary_minus_refused() -> None:
    _refused_quickly("-(" * 10_000 + "1" + ")" * 10_000, "")
    _refused_quickly("-" * 3000 + "1", "nest")


def test_nesting_just_within_the_bound_parses() -> None:
    parse("-" * 60 + "1")
    with pytest.raises(FormulaError, match="deeper than 64"):
        parse("-" * 70 + "1")


def test_non_string_refused() -> None:
    with pytest.raises(FormulaError):
        parse(3)  # type: ignore[arg-type, unused-ignore]
    with pytest.raises(FormulaError):
        parse(["a"])  # type: ignore[arg-type, unused-ignore]
