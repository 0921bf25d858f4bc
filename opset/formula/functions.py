"""The formula functions other than ``value`` and the lazy forms of ``all``/``any``."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from opset.formula import symbolic
from opset.formula.arithmetic import (
    absolute_value,
    binary,
    ceil_value,
    exact,
    floor_value,
    is_number,
    is_sequence,
    truncate_value,
    type_name,
)
from opset.formula.comparisons import all_of, any_of, compare, equal, truthy
from opset.formula.element_types import bits, is_float, is_integer, per_tensor, tensor
from opset.formula.errors import FormulaError, Undecided
from opset.formula.graph_value import GraphValue
from opset.formula.limits import MAX_RANGE_LENGTH, Budget
from opset.formula.symbolic import Sym

Function = Callable[[list[Any], Budget], Any]


def _one(name: str, args: list[Any]) -> Any:
    if len(args) != 1:
        raise FormulaError(f"{name}() takes exactly one argument ({len(args)} given)")
    return args[0]


def _iterable(name: str, value: Any) -> list[Any] | tuple[Any, ...]:
    if not is_sequence(value):
        raise FormulaError(f"{name}() needs a list or tuple, not {type_name(value)}")
    sequence: list[Any] | tuple[Any, ...] = value
    return sequence


def _length(name: str, args: list[Any], budget: Budget) -> int:
    value = _one(name, args)
    if not (is_sequence(value) or isinstance(value, str)):
        raise FormulaError(f"{name}() needs a list, tuple or string, not {type_name(value)}")
    return len(value)


def _range(args: list[Any], budget: Budget) -> list[int]:
    if not 1 <= len(args) <= 3:
        raise FormulaError(f"range() takes 1 to 3 arguments ({len(args)} given)")
    for arg in args:
        if isinstance(arg, Sym):
            raise Undecided(f"range() over a symbolic bound ({arg})")
        if not isinstance(arg, int):
            raise FormulaError(f"range() needs int arguments, not {type_name(arg)}")
    if len(args) == 3 and args[2] == 0:
        raise FormulaError("range() step cannot be zero")
    numbers = range(*args)
    if len(numbers) > MAX_RANGE_LENGTH:
        raise FormulaError(f"range() would have {len(numbers)} elements; the limit is {MAX_RANGE_LENGTH}")
    budget.charge(len(numbers))
    return list(numbers)


def _fold(name: str, op: str, start: Any) -> Function:
    def fold(args: list[Any], budget: Budget) -> Any:
        total = start
        for item in _iterable(name, _one(name, args)):
            budget.charge()
            total = binary(op, total, item, budget)
        return total

    return fold


def _extreme(name: str) -> Function:
    keep_op = "<=" if name == "max" else ">="  # a candidate is dropped when it is `keep_op` another

    def extreme(args: list[Any], budget: Budget) -> Any:
        items = list(_iterable(name, args[0])) if len(args) == 1 else args
        if not items:
            raise FormulaError(f"{name}() of an empty list")
        candidates: list[Any] = []
        for item in items:
            budget.charge(len(candidates) + 1)
            if any(_decided(keep_op, item, candidate, budget) for candidate in candidates):
                continue
            candidates = [c for c in candidates if not _decided(keep_op, c, item, budget)]
            candidates.append(item)
        if len(candidates) == 1:
            return candidates[0]
        if not all(is_number(c) or isinstance(c, Sym) for c in candidates):
            raise FormulaError(f"{name}() cannot compare {', '.join(type_name(c) for c in candidates)}")
        return symbolic.extreme(name, [exact(c) for c in candidates])

    return extreme


def _decided(op: str, left: Any, right: Any, budget: Budget) -> bool:
    """Whether `left op right` is known to hold; an undecidable comparison counts as not known."""
    try:
        return compare(op, left, right, budget)
    except Undecided:
        return False


def _truth_fold(name: str) -> Function:
    def fold(args: list[Any], budget: Budget) -> bool:
        checks = (partial(truthy, item) for item in _iterable(name, _one(name, args)))
        return all_of(checks) if name == "all" else any_of(checks)

    return fold


def _broadcast(args: list[Any], budget: Budget) -> list[Any]:
    if not args:
        raise FormulaError("broadcast() needs at least one shape")
    shapes = list(args)
    first = list(_iterable("broadcast", args[0]))
    if len(args) == 1 and first and all(isinstance(s, list | tuple) for s in first):
        shapes = first  # broadcast(X) over a variadic input: X is the list of its shapes
    result = list(_iterable("broadcast", shapes[0]))
    for shape in shapes[1:]:
        result = _broadcast_pair(result, list(_iterable("broadcast", shape)), budget)
    return result


def _broadcast_pair(left: list[Any], right: list[Any], budget: Budget) -> list[Any]:
    rank = max(len(left), len(right))
    padded_left = [1] * (rank - len(left)) + left
    padded_right = [1] * (rank - len(right)) + right
    result = []
    for a, b in zip(padded_left, padded_right, strict=True):
        budget.charge()
        if not (is_number(a) or isinstance(a, Sym)) or not (is_number(b) or isinstance(b, Sym)):
            raise FormulaError(f"broadcast() needs shapes of dims, got {type_name(a)} and {type_name(b)}")
        if _is_one(a):
            result.append(b)
        elif _is_one(b):
            result.append(a)
        else:
            try:
                same = equal(a, b, budget)
            except Undecided:  # a symbolic dim against another dim: what a valid broadcast gives (as onnx infers)
                result.append(_either(a, b, len(result)))
                continue
            if not same:
                raise FormulaError(f"cannot broadcast {format_value(left)} with {format_value(right)}")
            result.append(a)
    return result


def _either(a: Any, b: Any, position: int) -> Any:
    """The broadcast of two dims whose equality is not known, neither of them 1: a number against a symbolic dim is
    the number (the other can only be 1 or equal to it), two symbolic dims a dim nobody knows (either one, or both)."""
    if is_number(a):
        return a
    if is_number(b):
        return b
    return symbolic.opaque(f"?broadcast[{position}]")


def _is_one(dim: Any) -> bool:
    return is_number(dim) and bool(dim == 1)


def format_value(value: Any, limit: int = 80) -> str:
    """Short text of a value for error messages."""
    if is_sequence(value):
        shown = ", ".join(format_value(item, limit) for item in value[:16])
        more = ", ..." if len(value) > 16 else ""
        text = f"[{shown}{more}]" if isinstance(value, list) else f"({shown}{more})"
    else:
        text = repr(value) if isinstance(value, str) else str(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _unknown(args: list[Any], budget: Budget) -> Sym:
    """A dim whose size depends on values nobody knows here (NonZero's count): an opaque symbol `?<tag>`, or
    `?<tag>[i]` for the i-th of several (`unknown('sliced', i)`: each sliced axis its own dim). Within one evaluation
    the same tag (and index) is the same dim; like the validator's fresh dims, it has no name a model could give it
    (and the validator gives each node's its own: opset.validate.node)."""
    if not 1 <= len(args) <= 2:
        raise FormulaError(f"unknown() takes a tag and an optional index ({len(args)} given)")
    tag = args[0]
    if not isinstance(tag, str) or not tag:
        raise FormulaError(f"unknown() needs a non-empty string, not {type_name(tag)}")
    if len(args) == 1:
        return symbolic.opaque(f"?{tag}")
    index = args[1]
    if type(index) is not int:
        raise FormulaError(f"unknown()'s index must be an int, not {type_name(index)}")
    return symbolic.opaque(f"?{tag}[{index}]")


def _graph(name: str, args: list[Any]) -> GraphValue:
    graph = _one(name, args)
    if not isinstance(graph, GraphValue):
        what = "an absent graph attribute" if graph is None else type_name(graph)
        raise FormulaError(f"{name}() needs a graph attribute, not {what}")
    return graph


def _graph_shapes(args: list[Any], budget: Budget) -> list[list[Any]]:
    """The output shapes of a graph attribute; undecided when one of them is not known."""
    graph = _graph("graph_shapes", args)
    budget.charge(len(graph.outputs))
    unknown = [port.name for port in graph.outputs if port.shape is None]
    if unknown:
        raise Undecided(f"the shape of graph output(s) {', '.join(unknown)} is not known")
    return [list(port.shape or ()) for port in graph.outputs]


def _graph_types(args: list[Any], budget: Budget) -> list[str]:
    """The output types of a graph attribute (`tensor(float)` ...); undecided when one of them is not known."""
    graph = _graph("graph_types", args)
    budget.charge(len(graph.outputs))
    unknown = [port.name for port in graph.outputs if port.type is None]
    if unknown:
        raise Undecided(f"the type of graph output(s) {', '.join(unknown)} is not known")
    return [str(port.type) for port in graph.outputs]


def _merge(args: list[Any], budget: Budget) -> list[Any]:
    """Two shapes one value may have (If's two branches): the dims they agree on, an unknown dim where they
    differ; undecided (no shape) when their ranks differ. Two sequences' element shapes (lists of shapes) merge
    element by element (undecided when their counts differ)."""
    if len(args) != 2:
        raise FormulaError(f"merge() takes exactly two shapes ({len(args)} given)")
    left, right = (list(_iterable("merge", arg)) for arg in args)
    if len(left) != len(right):
        raise Undecided(f"merge() of shapes of different ranks ({format_value(left)}, {format_value(right)})")
    merged: list[Any] = []
    for a, b in zip(left, right, strict=True):
        budget.charge()
        if is_sequence(a) and is_sequence(b):  # two sequences' element shapes, merged element by element
            merged.append(_merge([a, b], budget))
            continue
        if a is None or b is None:  # an element without a shape (a map) in either sequence
            merged.append(None)
            continue
        if not (is_number(a) or isinstance(a, Sym)) or not (is_number(b) or isinstance(b, Sym)):
            raise FormulaError(f"merge() needs shapes of dims, got {type_name(a)} and {type_name(b)}")
        merged.append(a if _decided("==", a, b, budget) else symbolic.opaque(f"?{a}|{b}"))
    return merged


FUNCTIONS: dict[str, Function] = {
    "floor": lambda args, budget: floor_value(_one("floor", args)),
    "ceil": lambda args, budget: ceil_value(_one("ceil", args)),
    "abs": lambda args, budget: absolute_value(_one("abs", args)),
    "int": lambda args, budget: truncate_value(_one("int", args)),
    "len": lambda args, budget: _length("len", args, budget),
    "rank": lambda args, budget: _length("rank", args, budget),
    "range": _range,
    "sum": _fold("sum", "+", 0),
    "prod": _fold("prod", "*", 1),
    "min": _extreme("min"),
    "max": _extreme("max"),
    "all": _truth_fold("all"),
    "any": _truth_fold("any"),
    "broadcast": _broadcast,
    "unknown": _unknown,
    "graph_shapes": _graph_shapes,
    "graph_types": _graph_types,
    "merge": _merge,
    "is_integer": is_integer,
    "is_float": is_float,
    "bits": bits,
    "tensor": tensor,
    "per_tensor": per_tensor,
}
