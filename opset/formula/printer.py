"""Tree -> normalised text: canonical spacing and the fewest parentheses that keep the same tree."""

from __future__ import annotations

import math

from opset.formula.nodes import (
    BinOp,
    BoolOp,
    Call,
    Compare,
    Comprehension,
    Const,
    ForClause,
    IfExp,
    ListDisplay,
    Name,
    Node,
    Slice,
    Subscript,
    TupleDisplay,
    UnaryOp,
)

# Python's precedence levels, lowest first.
_CONDITIONAL = 1
_OR = 2
_AND = 3
_NOT = 4
_COMPARISON = 5
_SUM = 10
_PRODUCT = 11
_UNARY = 12
_POWER = 13
_PRIMARY = 15
_ATOM = 16

_BINARY_LEVEL = {"+": _SUM, "-": _SUM, "*": _PRODUCT, "/": _PRODUCT, "//": _PRODUCT, "%": _PRODUCT, "**": _POWER}


def precedence(node: Node) -> int:
    match node:
        case IfExp():
            return _CONDITIONAL
        case BoolOp(op):
            return _OR if op == "or" else _AND
        case UnaryOp(op):
            return _NOT if op == "not" else _UNARY
        case Compare():
            return _COMPARISON
        case BinOp(op):
            return _BINARY_LEVEL[op]
        case Subscript() | Call():
            return _PRIMARY
    return _ATOM


def to_text(node: Node) -> str:
    """The normalised text of a tree."""
    match node:
        case Const(value):
            return _constant_text(value)
        case Name(name):
            return name
        case BinOp(op, left, right):
            return _binary_text(op, left, right)
        case UnaryOp("not", operand):
            return f"not {_operand(operand, _NOT)}"
        case UnaryOp(op, operand):
            return f"{op}{_operand(operand, _UNARY)}"
        case BoolOp(op, values):
            level = precedence(node)
            return f" {op} ".join(_operand(value, level + 1) for value in values)
        case Compare(left, ops, comparators):
            parts = [_operand(left, _COMPARISON + 1)]
            for op, comparator in zip(ops, comparators, strict=True):
                parts.append(f"{op} {_operand(comparator, _COMPARISON + 1)}")
            return " ".join(parts)
        case IfExp(test, body, orelse):
            return f"{_operand(body, _OR)} if {_operand(test, _OR)} else {_operand(orelse, _CONDITIONAL)}"
        case Subscript(value, index):
            inner = _slice_text(index) if isinstance(index, Slice) else _index_text(index)
            return f"{_operand(value, _PRIMARY)}[{inner}]"
        case ListDisplay(elements):
            return "[" + ", ".join(_operand(e, _CONDITIONAL) for e in elements) + "]"
        case TupleDisplay(elements):
            if len(elements) == 1:
                return f"({_operand(elements[0], _CONDITIONAL)},)"
            return "(" + ", ".join(_operand(e, _CONDITIONAL) for e in elements) + ")"
        case Comprehension(is_generator, element, clauses):
            inner = _comprehension_body(element, clauses)
            return f"({inner})" if is_generator else f"[{inner}]"
        case Call(function, args):
            return f"{function}({_arguments_text(args)})"
    raise TypeError(f"not a formula node: {node!r}")


def _constant_text(value: object) -> str:
    if isinstance(value, float) and math.isinf(value):
        return "1e999"  # repr gives `inf`, which would read back as a name
    return repr(value)


def _operand(node: Node, minimum: int) -> str:
    text = to_text(node)
    return text if precedence(node) >= minimum else f"({text})"


def _binary_text(op: str, left: Node, right: Node) -> str:
    level = _BINARY_LEVEL[op]
    if op == "**":
        # Right associative; a unary minus may stand on the right (`2 ** -x`) but not on the left.
        return f"{_operand(left, _POWER + 1)} ** {_operand(right, _UNARY)}"
    return f"{_operand(left, level)} {op} {_operand(right, level + 1)}"


def _index_text(index: Node) -> str:
    if isinstance(index, TupleDisplay) and index.elements:
        return ", ".join(_operand(e, _CONDITIONAL) for e in index.elements) + ("," if len(index.elements) == 1 else "")
    return _operand(index, _CONDITIONAL)


def _slice_text(index: Slice) -> str:
    lower = "" if index.lower is None else _operand(index.lower, _CONDITIONAL)
    upper = "" if index.upper is None else _operand(index.upper, _CONDITIONAL)
    text = f"{lower}:{upper}"
    if index.step is not None:
        text += f":{_operand(index.step, _CONDITIONAL)}"
    return text


def _comprehension_body(element: Node, clauses: tuple[ForClause, ...]) -> str:
    parts = [_operand(element, _CONDITIONAL)]
    for clause in clauses:
        parts.append(f"for {clause.target} in {_operand(clause.iterable, _OR)}")
        parts.extend(f"if {_operand(condition, _OR)}" for condition in clause.conditions)
    return " ".join(parts)


def _arguments_text(args: tuple[Node, ...]) -> str:
    if len(args) == 1 and isinstance(args[0], Comprehension) and args[0].is_generator:
        return _comprehension_body(args[0].element, args[0].clauses)
    return ", ".join(_operand(arg, _CONDITIONAL) for arg in args)

