"""Indexing and slicing of lists, tuples and strings."""

from __future__ import annotations

from typing import Any

from opset.formula.arithmetic import is_sequence, type_name
from opset.formula.errors import FormulaError, Undecided
from opset.formula.limits import Budget
from opset.formula.symbolic import Sym


def _checked_container(container: Any) -> None:
    if not (is_sequence(container) or isinstance(container, str)):
        raise FormulaError(f"cannot index a {type_name(container)}")


def _checked_int(value: Any, what: str) -> int:
    if isinstance(value, Sym):
        raise Undecided(f"{what} is symbolic ({value})")
    if not isinstance(value, int):
        raise FormulaError(f"{what} must be an int, not {type_name(value)}")
    return int(value)


def item_at(container: Any, index: Any) -> Any:
    _checked_container(container)
    position = _checked_int(index, "an index")
    if not -len(container) <= position < len(container):
        raise FormulaError(f"index {position} is out of range for a {type_name(container)} of length {len(container)}")
    return container[position]


def sliced(container: Any, lower: Any, upper: Any, step: Any, budget: Budget) -> Any:
    _checked_container(container)
    bounds = [None if part is None else _checked_int(part, "a slice bound") for part in (lower, upper, step)]
    if bounds[2] == 0:
        raise FormulaError("slice step cannot be zero")
    result = container[slice(*bounds)]
    budget.charge(len(result))
    return result
