"""What the generated formula modules (`opset/formula/generated/`, written by `gen formulas`) call, and nothing else.

A generated function is the Python source of one checked formula tree, written by `gen/formulas/emit.py`: it takes
an `Evaluator` and does what the walked evaluator does for that tree, step for step (the same step budget, the same
order, the same helpers, so the same values and errors). Its only names are the ones this module exports
(`VOCABULARY`), the Python builtins `type`, `int`, `str`, `list`, `tuple`, `len`, `isinstance`, and its own locals
(`ev`, `b`, `t1`, `c1` ...); formula names and strings reach it only as `repr` literals.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from opset.formula.arithmetic import binary, is_sequence, type_name, unary
from opset.formula.comparisons import compare, truthy
from opset.formula.errors import FormulaError, Undecided
from opset.formula.evaluator import UNEXPECTED_ERRORS, Evaluator
from opset.formula.functions import FUNCTIONS
from opset.formula.host_values import InputValues
from opset.formula.indexing import item_at, sliced
from opset.formula.limits import MAX_INT_MAGNITUDE, MAX_LIST_LENGTH, MAX_STEPS, check_length
from opset.formula.nodes import Name
from opset.formula.symbolic import Sym

Generated = Callable[[Evaluator], Any]
# what a formula reads, as a generated module states it beside its function: (free names, functions called), sorted
Facts = tuple[tuple[str, ...], tuple[str, ...]]
Evaluation = Callable[[Mapping[str, Any], InputValues | None], Any]

_DIMS = frozenset({int, Sym})  # a list of these (a shape) is loaded as it is, charging what `from_host` charges
_NO_SCOPE: dict[str, Any] = {}
INF = float("inf")
NAN = float("nan")


def load(ev: Evaluator, name: str) -> Any:
    """A free name's value (the compiled `_name` after its step): plain values as they are, charging what
    `from_host` would, anything else through `Evaluator.lookup`."""
    converted = ev.converted
    if name in converted:
        return converted[name]
    bound = ev.bound
    if bound is not None and name in bound:
        raw = bound[name]
    else:
        env = ev.env
        if name not in env:
            return ev.lookup(name, _NO_SCOPE)
        raw = env[name]
    kind = type(raw)
    if kind is int or kind is str or raw is None:
        cost = 1
    elif kind is list and len(raw) <= MAX_LIST_LENGTH and set(map(type, raw)) <= _DIMS:
        cost = 1 + len(raw)
    else:
        return ev.lookup(name, _NO_SCOPE)
    budget = ev.budget
    budget.steps += cost
    if budget.steps > MAX_STEPS:
        budget.charge(0)
    converted[name] = raw
    return raw


def iterated(value: Any) -> Any:
    """A comprehension's iterable, as the evaluator accepts it."""
    if not (is_sequence(value) or isinstance(value, str)):
        raise FormulaError(f"cannot iterate over a {type_name(value)}")
    return value


def read_input(ev: Evaluator, form: str, name: str) -> Any:
    """`value(X)`, `type_of(X)`, `dtype(X)` through the evaluator's own readers."""
    node = Name(name)
    if form == "value":
        return ev.input_values(node)
    if form == "type_of":
        return ev.input_type(node)
    return ev.input_element(node)


def evaluation(function: Generated) -> Evaluation:
    """A generated function as `Formula.evaluate` runs it: only FormulaError or Undecided leave it."""
    def evaluate(env: Mapping[str, Any], values: InputValues | None) -> Any:
        try:
            return function(Evaluator(env, values))
        except (FormulaError, Undecided):
            raise
        except UNEXPECTED_ERRORS as error:
            raise FormulaError(f"internal error evaluating formula: {type(error).__name__}: {error}") from error
    return evaluate


# every name a generated module imports from here (the emitter writes no other)
VOCABULARY = ("Any", "Evaluator", "FUNCTIONS", "INF", "MAX_INT_MAGNITUDE", "MAX_STEPS", "NAN", "Undecided", "binary",
              "check_length", "compare", "item_at", "iterated", "load", "read_input", "sliced", "truthy", "unary")

__all__ = [
    "FUNCTIONS",
    "INF",
    "MAX_INT_MAGNITUDE",
    "MAX_STEPS",
    "NAN",
    "Any",
    "Evaluation",
    "Evaluator",
    "Facts",
    "Generated",
    "Undecided",
    "binary",
    "check_length",
    "compare",
    "evaluation",
    "item_at",
    "iterated",
    "load",
    "read_input",
    "sliced",
    "truthy",
    "unary",
]
