"""The formula language's own immutable syntax tree; structural equality, no source positions."""

from __future__ import annotations

from dataclasses import dataclass

ConstValue = int | float | str | bool | None

ARITHMETIC_OPERATORS = ("+", "-", "*", "/", "//", "%", "**")
COMPARISON_OPERATORS = ("==", "!=", "<", "<=", ">", ">=", "in", "not in")
# the functions every formula may call: `opset.formula.functions.FUNCTIONS` implements them, but for the special
# forms over an input's name (`value(X)`, `type_of(X)`, `dtype(X)`: INPUT_FORMS) that the evaluator reads itself
INPUT_FORMS = frozenset({"value", "type_of", "dtype"})
TYPE_FORMS = frozenset({"type_of", "dtype"})  # the forms reading input types: a caller passes them where used
FUNCTION_NAMES = frozenset(
    {"floor", "ceil", "min", "max", "abs", "sum", "prod", "all", "any", "len", "range", "rank", "broadcast",
     "int", "value", "unknown", "type_of", "graph_shapes", "graph_types", "merge", "dtype", "is_integer", "is_float",
     "bits", "tensor", "per_tensor"}
)


@dataclass(frozen=True, slots=True, eq=False)
class Const:
    value: ConstValue

    def _key(self) -> tuple[type, ConstValue]:
        # 1, 1.0 and True are equal in Python but are different formulas.
        return (type(self.value), self.value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Const) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())


@dataclass(frozen=True, slots=True)
class Name:
    id: str


@dataclass(frozen=True, slots=True)
class BinOp:
    op: str
    left: Node
    right: Node


@dataclass(frozen=True, slots=True)
class UnaryOp:
    op: str  # "-", "+" or "not"
    operand: Node


@dataclass(frozen=True, slots=True)
class BoolOp:
    op: str  # "and" or "or"
    values: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Compare:
    left: Node
    ops: tuple[str, ...]
    comparators: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class IfExp:
    test: Node
    body: Node
    orelse: Node


@dataclass(frozen=True, slots=True)
class Slice:
    lower: Node | None
    upper: Node | None
    step: Node | None


@dataclass(frozen=True, slots=True)
class Subscript:
    value: Node
    index: Node | Slice


@dataclass(frozen=True, slots=True)
class ListDisplay:
    elements: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class TupleDisplay:
    elements: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class ForClause:
    target: str
    iterable: Node
    conditions: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Comprehension:
    is_generator: bool  # a generator expression `(x for ...)` rather than a list `[x for ...]`
    element: Node
    clauses: tuple[ForClause, ...]


@dataclass(frozen=True, slots=True)
class Call:
    function: str
    args: tuple[Node, ...]


Node = Const | Name | BinOp | UnaryOp | BoolOp | Compare | IfExp | Subscript | ListDisplay | TupleDisplay | \
    Comprehension | Call


def child_nodes(node: Node | Slice | ForClause) -> tuple[Node | Slice | ForClause, ...]:
    """The direct children, in source order."""
    match node:
        case Const() | Name():
            return ()
        case BinOp(_, left, right):
            return (left, right)
        case UnaryOp(_, operand):
            return (operand,)
        case BoolOp(_, values):
            return values
        case Compare(left, _, comparators):
            return (left, *comparators)
        case IfExp(test, body, orelse):
            return (body, test, orelse)
        case Slice(lower, upper, step):
            return tuple(part for part in (lower, upper, step) if part is not None)
        case Subscript(value, index):
            return (value, index)
        case ListDisplay(elements) | TupleDisplay(elements):
            return elements
        case ForClause(_, iterable, conditions):
            return (iterable, *conditions)
        case Comprehension(_, element, clauses):
            return (*clauses, element)
        case Call(_, args):
            return args
    raise TypeError(f"not a formula node: {node!r}")
