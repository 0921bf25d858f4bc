"""Hostile formula text through `gen formulas`' emitter: what the parser accepts is written as source whose only
identifiers are the emitter's vocabulary and its own numbered locals, and running that source only computes (it
agrees with the walked evaluator); what the parser refuses never reaches the emitter."""

from __future__ import annotations

import ast
import builtins
import keyword
import re

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

import opset.formula.emitted as emitted
from gen.formulas.emit import NotEmitted, function_source
from opset.formula import FormulaError, Sym, Undecided, parse
from opset.formula.evaluator import evaluate_tree
from opset.formula.nodes import FUNCTION_NAMES
from tests.helpers.fuzz import fuzz

pytestmark = pytest.mark.fuzz

ENV = {"x": 3, "n": -2, "S": [4, 5, Sym("N")], "axes": [0, -1], "r": 3, "s": "SAME_UPPER", "f": 0.5, "none": None,
       "sym": Sym("batch"), "shape": [2**40, 2**40], "nested": [[1, 2], [3, [4]]], "é": 1, "Ω": [1]}
OPERATORS = ["+", "-", "*", "/", "//", "%", "**", "==", "!=", "<", "<=", ">", ">=", "in", "not in", "and", "or"]
ATOMS = st.one_of(
    st.sampled_from([*ENV, "unknown_name"]),
    st.integers(-(2**70), 2**70).map(str),
    st.sampled_from(["0", "1", "10**100", "1e308", "1e999", "'SAME_UPPER'", "''", "None", "True", "[]", "[1, 2, 3]",
                     "range(10**12)", "'ab' * 10**9", "'\\'\"'", "\"\\n\""]),
    st.floats(allow_nan=False).map(repr),
)
EXPRESSIONS = st.recursive(
    ATOMS,
    lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(OPERATORS), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(st.sampled_from(["-", "not ", "+"]), inner).map(lambda t: f"({t[0]}{t[1]})"),
        st.tuples(inner, inner, inner).map(lambda t: f"({t[0]} if {t[1]} else {t[2]})"),
        st.tuples(inner, inner).map(lambda t: f"{t[0]}[{t[1]}]"),
        st.tuples(inner, inner).map(lambda t: f"{t[0]}[{t[1]}:]"),
        st.lists(inner, max_size=3).map(lambda items: f"[{', '.join(items)}]"),
        st.tuples(inner, inner, inner).map(lambda t: f"[{t[0]} for i in {t[1]} if {t[2]}]"),
        st.tuples(st.sampled_from(["all", "any"]), inner, inner).map(lambda t: f"{t[0]}({t[1]} for i in {t[2]})"),
        st.tuples(st.sampled_from(sorted(FUNCTION_NAMES)), st.lists(inner, max_size=2))
        .map(lambda t: f"{t[0]}({', '.join(t[1])})"),
    ),
    max_leaves=12,
)

ALLOWED = set(emitted.VOCABULARY) | {"ev", "b", "type", "int", "str", "list", "tuple", "len", "isinstance",
                                     "Evaluator", "Any", "True", "False", "None"}
LOCAL = re.compile(r"[tcukdeqr][0-9]+|_f0")
HOSTILE_TEXTS = [
    "__import__('os').system('true')", "x.__class__", "().__class__.__bases__[0]", "'a' + \"b\\n\" + '''c'''",
    "x\nimport os", "x; y", "lambda: 0", "[x for __y in range(3)]", "exec('1')", "eval('1')", "open('f')",
    "globals()", "f'{x}'", "b'\\x00'", "10 ** 10 ** 10", "9" * 5000, "0x" + "f" * 5000, "1e999", "-1e999",
    "'\\u202e' + 'é' + '\\ud800'", "é + Ω", "x if x else __builtins__", "len('\\'); import os; (\\'')",
    "sum([x for x in range(10**6)])", "'\\nimport os\\n'", "ev", "b.steps", "load", "ev.env", "t1", "r1",
]
HOSTILE = st.sampled_from(HOSTILE_TEXTS)


def _identifiers(source: str) -> set[str]:
    tree = ast.parse(source)
    names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    names |= {node.arg for node in ast.walk(tree) if isinstance(node, ast.arg)}
    attributes = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    assert attributes <= {"budget", "steps", "charge", "append"}, attributes
    return names


def _run(text: str) -> str:
    try:
        formula = parse(text)
    except FormulaError:
        return "refused by the parser"
    try:
        source = function_source("_f0", formula.tree)
        code = compile(source, "<generated formula>", "exec")
    except (NotEmitted, SyntaxError, RecursionError, MemoryError):
        return "not emitted: runs compiled"
    unknown = {n for n in _identifiers(source) if n not in ALLOWED and not LOCAL.fullmatch(n)}
    assert not unknown, (text, unknown, source)
    assert all(not keyword.iskeyword(n) for n in unknown)
    namespace = {name: getattr(emitted, name) for name in emitted.VOCABULARY}
    namespace["__builtins__"] = {n: getattr(builtins, n) for n in ("type", "int", "str", "list", "tuple", "len",
                                                                    "isinstance")}
    exec(code, namespace)  # defines _f0 and nothing else
    assert set(namespace) - set(emitted.VOCABULARY) == {"__builtins__", "_f0"}

    def outcome(run: object) -> tuple[str, str]:
        try:
            result = run()  # type: ignore[operator]
        except (FormulaError, Undecided) as error:
            return type(error).__name__, error.message
        return type(result).__name__, repr(result)

    generated = outcome(lambda: emitted.evaluation(namespace["_f0"])(dict(ENV), None))
    walked = outcome(lambda: evaluate_tree(formula.tree, dict(ENV), None))
    assert generated == walked, text
    return "emitted and run"


@fuzz(300)
@given(st.one_of(EXPRESSIONS, HOSTILE, st.text(max_size=40)))
def test_hostile_formulas_are_refused_or_compiled_harmlessly(text: str) -> None:
    event(_run(text))


@pytest.mark.parametrize("text", HOSTILE_TEXTS)
def test_each_hostile_example(text: str) -> None:
    _run(text)
