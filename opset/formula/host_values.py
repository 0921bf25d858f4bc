"""Values coming from the caller (env entries, input values) turned into formula values."""

from __future__ import annotations

import numbers
import sys
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from opset.formula.errors import FormulaError
from opset.formula.graph_value import GraphValue
from opset.formula.limits import Budget, check_length
from opset.formula.symbolic import Sym

if TYPE_CHECKING:
    import numpy as np

MAX_HOST_NESTING = 32

# Known input values by input name, for value(X): flat or nested sequences, or numpy arrays.
InputValues = Mapping[str, "Sequence[Any] | np.ndarray[Any, Any]"]


def _numpy() -> Any:
    """numpy if something imported it (only then can a numpy value exist): the registry loads without it."""
    return sys.modules.get("numpy")


def from_host(value: Any, what: str, budget: Budget, depth: int = 0) -> Any:
    """Plain ints, floats, strings, lists... from numpy scalars and arrays too; other types are refused."""
    if depth > MAX_HOST_NESTING:
        raise FormulaError(f"{what} is nested more than {MAX_HOST_NESTING} levels deep")
    budget.charge()
    kind = type(value)
    if kind is int:
        return value
    if kind is list and all(type(item) is int for item in value):
        # the common case (a shape, an ints attribute): already plain; formulas never mutate what they read
        check_length(len(value), what)
        budget.charge(len(value))
        return value
    if value is None or isinstance(value, bool | str | Sym | Fraction | GraphValue):
        return value
    np = _numpy()
    if np is not None and isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    if np is not None and isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, list | tuple):
        check_length(len(value), what)
        converted = [from_host(item, what, budget, depth + 1) for item in value]
        return tuple(converted) if isinstance(value, tuple) else converted
    raise FormulaError(f"{what} has a value of unsupported type {type(value).__name__}")


def flat_values(raw: Any, what: str, budget: Budget) -> list[Any]:
    """The values of an input as a flat list (``value(X)``)."""
    np = _numpy()
    if np is not None and isinstance(raw, np.ndarray):
        raw = raw.reshape(-1).tolist()
    if not isinstance(raw, list | tuple):
        raise FormulaError(f"{what} must be a sequence of values, not {type(raw).__name__}")
    return list(from_host(list(raw), what, budget))
