"""Truth, equality, ordering and membership of formula values, with symbolic dims.

A comparison that depends on the value of a symbolic dim raises Undecided, never guesses.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

from opset.formula import symbolic
from opset.formula.arithmetic import exact, is_number, is_sequence, type_name
from opset.formula.errors import FormulaError, Undecided
from opset.formula.limits import Budget
from opset.formula.symbolic import Sym


def truthy(value: Any) -> bool:
    if isinstance(value, Sym):
        raise Undecided(f"the truth of symbolic value {value} is unknown")
    return bool(value)


def equal(left: Any, right: Any, budget: Budget) -> bool:
    budget.charge()
    if is_sequence(left) and is_sequence(right):
        if len(left) != len(right):
            return False
        return all_of(partial(equal, a, b, budget) for a, b in zip(left, right, strict=True))
    if isinstance(left, Sym) or isinstance(right, Sym):
        if type(left) is Sym and type(right) is Sym and left == right:
            return True  # the same polynomial (most often the same dim object): their difference is 0
        if not _is_numeric(left) or not _is_numeric(right):
            return False
        return symbolic.sign_of_difference(exact(left), exact(right)) == 0
    if is_number(left) and is_number(right):
        return bool(left == right)
    if type(left) is not type(right):
        return False
    return bool(left == right)


def all_of(checks: Iterable[Callable[[], bool]]) -> bool:
    """True when every check holds, False as soon as one fails; Undecided if only undecided ones remain."""
    undecided: Undecided | None = None
    for check in checks:
        try:
            if not check():
                return False
        except Undecided as error:
            undecided = undecided or error
    if undecided is not None:
        raise undecided
    return True


def any_of(checks: Iterable[Callable[[], bool]]) -> bool:
    """True as soon as one check holds; Undecided if none holds but some are undecided."""
    undecided: Undecided | None = None
    for check in checks:
        try:
            if check():
                return True
        except Undecided as error:
            undecided = undecided or error
    if undecided is not None:
        raise undecided
    return False


def _is_numeric(value: Any) -> bool:
    return is_number(value) or isinstance(value, Sym)


def compare(op: str, left: Any, right: Any, budget: Budget) -> bool:
    """One comparison step of a (possibly chained) comparison."""
    match op:
        case "==":
            return equal(left, right, budget)
        case "!=":
            return not equal(left, right, budget)
        case "in":
            return contains(right, left, budget)
        case "not in":
            return not contains(right, left, budget)
    return _ordered(op, left, right, budget)


def _ordered(op: str, left: Any, right: Any, budget: Budget) -> bool:
    budget.charge()
    if _is_numeric(left) and _is_numeric(right):
        if isinstance(left, Sym) or isinstance(right, Sym):
            return _holds(op, symbolic.sign_of_difference(exact(left), exact(right)))
        return _holds_plain(op, left, right)
    if isinstance(left, str) and isinstance(right, str):
        return _holds_plain(op, left, right)
    if is_sequence(left) and is_sequence(right):
        for a, b in zip(left, right, strict=False):
            if not equal(a, b, budget):
                return _ordered(op, a, b, budget)
        return _holds_plain(op, len(left), len(right))
    raise FormulaError(f"cannot compare {type_name(left)} with {type_name(right)} using {op}")


def _holds(op: str, sign: int) -> bool:
    return {"<": sign < 0, "<=": sign <= 0, ">": sign > 0, ">=": sign >= 0}[op]


def _holds_plain(op: str, left: Any, right: Any) -> bool:
    match op:
        case "<":
            return bool(left < right)
        case "<=":
            return bool(left <= right)
        case ">":
            return bool(left > right)
    return bool(left >= right)


def contains(container: Any, item: Any, budget: Budget) -> bool:
    if isinstance(container, str):
        if not isinstance(item, str):
            raise FormulaError(f"'in <string>' needs a string on the left, not {type_name(item)}")
        budget.charge(len(container))
        return item in container
    if not is_sequence(container):
        raise FormulaError(f"'in' needs a list, tuple or string on the right, not {type_name(container)}")
    return any_of(partial(equal, item, element, budget) for element in container)
