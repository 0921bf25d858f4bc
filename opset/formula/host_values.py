"""Values coming from the caller (env entries, input values) turned into formula values."""

from __future__ import annotations

import numbers
import sys
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from opset.formula.errors import FormulaError, Undecided
from opset.formula.graph_value import GraphValue
from opset.formula.limits import MAX_LIST_LENGTH, MAX_STEPS, Budget
from opset.formula.symbolic import Sym

if TYPE_CHECKING:
    import numpy as np

MAX_HOST_NESTING = 32

# Known input values by input name, for value(X): flat or nested sequences, or numpy arrays.
InputValues = Mapping[str, "Sequence[Any] | np.ndarray[Any, Any]"]


def _numpy() -> Any:
    """numpy if something imported it (only then can a numpy value exist): the registry loads without it."""
    return sys.modules.get("numpy")


def _onnx_tensor(value: Any, what: str) -> Any:
    """The values of an onnx TensorProto (a tensor attribute) as a numpy array; None for anything else. onnx is
    only consulted when something imported it (only then can a TensorProto exist). A tensor whose stored values
    do not fit its dims (the validator reports it as tensor_data), or that keeps them in another file, leaves
    what depends on it undecided."""
    onnx = sys.modules.get("onnx")
    if onnx is None or not isinstance(value, onnx.TensorProto):
        return None
    from onnx import numpy_helper

    from opset.tensor_data import read_stored

    stored = read_stored(value)
    if stored.problem or not stored.here:
        raise Undecided(f"{what}: {stored.problem or 'its values are not stored in the model'}")
    return numpy_helper.to_array(value)


def _check_host_length(length: int, what: str) -> None:
    """A value a node brings (an attribute, an input's values) longer than a formula's lists may grow is too big to
    reason about cheaply, not wrong: what depends on it stays undecided (a forest of 150 000 nodes is a real
    model), where a formula building such a list itself is an error."""
    if length > MAX_LIST_LENGTH:
        raise Undecided(f"{what} has {length} elements, more than the {MAX_LIST_LENGTH} a formula reasons about")


_PLAIN = frozenset({int, float, str})  # types from_host returns as they are (not their subclasses: bool, numpy's)
_PLAIN_ITEMS = _PLAIN | {Sym}  # items of a list from_host returns as it is: a shape with symbolic dims is one


def from_host(value: Any, what: str, budget: Budget, depth: int = 0) -> Any:
    """Plain ints, floats, strings, lists... from numpy scalars and arrays too; other types are refused."""
    if depth > MAX_HOST_NESTING:
        raise FormulaError(f"{what} is nested more than {MAX_HOST_NESTING} levels deep")
    budget.charge()
    kind = type(value)
    if kind is int:
        return value
    if kind is list and set(map(type, value)) <= _PLAIN_ITEMS:
        # the common case (a shape, symbolic dims included, an ints, floats or strings attribute): already plain,
        # as the items' own conversion would leave them, at the same cost; formulas never mutate what they read
        _check_host_length(len(value), what)
        budget.charge(len(value))
        return value
    if value is None or isinstance(value, bool | str | Sym | Fraction | GraphValue):
        return value
    np = _numpy()
    if np is not None and isinstance(value, np.bool_):
        return bool(value)
    tensor = _onnx_tensor(value, what)
    if tensor is not None:  # a tensor attribute as a model holds it: its values, as a conformance case holds them
        value = tensor
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    if np is not None and isinstance(value, np.ndarray):
        if value.size > MAX_STEPS:  # more than an evaluation may touch: refuse before tolist() copies it
            raise Undecided(f"{what} has {value.size} elements, more than the {MAX_STEPS} a formula reasons about")
        value = value.tolist()
    if isinstance(value, list | tuple):
        _check_host_length(len(value), what)
        converted = [from_host(item, what, budget, depth + 1) for item in value]
        return tuple(converted) if isinstance(value, tuple) else converted
    raise FormulaError(f"{what} has a value of unsupported type {type(value).__name__}")


def flat_values(raw: Any, what: str, budget: Budget) -> list[Any]:
    """The values of an input as a flat list (``value(X)``)."""
    np = _numpy()
    if np is not None and isinstance(raw, np.ndarray):
        _check_host_length(raw.size, what)  # before tolist() copies it
        raw = raw.reshape(-1).tolist()
    if not isinstance(raw, list | tuple):
        raise FormulaError(f"{what} must be a sequence of values, not {type(raw).__name__}")
    return list(from_host(list(raw), what, budget))
