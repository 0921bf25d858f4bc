"""Why a constraint is false, with the values it compared: the one place such messages are made.

`explain_violation(tree, env, values, sources)` walks the formula tree of a constraint that evaluated false and
finds the comparison that decided it: through `and` (the first false operand), `or` (its last operand: the ones
before it are the cases the constraint does not apply to, and they were false too), `if ... else` (the branch
taken), `not`, and `all(... for ...)` (the first element that is false, with its loop variables). It then prints
the names that comparison reads, each with its value (an input's dim names as the input's shape: `A is [8, 16]`),
the comparison's text and the values on both sides of its failing step with the operator that holds between them:

    A is [8, 16], B is [8, 16], rb is 2: SA[-1] == (SB[0] if rb == 1 else SB[-2]): 16 != 8

Nothing is written per constraint: the words come from the formula's own operands, evaluated by the walked
evaluator (the reference one). Build errors, `opset validate` diagnostics and conform all get their constraint
messages from here (through `opset.infer.check_constraints`), and a compiled evaluator must give the same text by
calling this function, not by rebuilding it. It never raises: where a part cannot be evaluated, it says less.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from opset.formula.arithmetic import is_sequence
from opset.formula.errors import FormulaError, Undecided
from opset.formula.evaluator import UNEXPECTED_ERRORS, Evaluator, Scope
from opset.formula.host_values import InputValues
from opset.formula.nodes import (
    BoolOp,
    Call,
    Compare,
    Comprehension,
    ForClause,
    IfExp,
    Name,
    Node,
    Slice,
    UnaryOp,
    child_nodes,
)
from opset.formula.printer import to_text

NEGATED = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<", "in": "not in", "not in": "in"}
MAX_SHOWN_ITEMS = 16  # a longer list prints its first items and how many there are
MAX_SHOWN_CHARS = 160

_FAILED = (FormulaError, Undecided, *UNEXPECTED_ERRORS)


def explain_violation(tree: Node, env: Mapping[str, Any], values: InputValues | None = None,
                      sources: Mapping[str, str] | None = None) -> str:
    """What the false constraint `tree` compared, with the values (see the module's text). `sources` maps a dim
    name of an input's shape signature to that input's name (in `env`, the input's shape): the input is shown
    instead of the dim. Empty when nothing could be evaluated."""
    walker = _Walker(env, values)
    try:
        focus, scope, fragment = walker.failing(tree, {})
    except RecursionError:
        return ""
    shown = walker.names_of(focus, scope, sources or {})
    bound = [f"{name} = {_shown(value)}" for name, value in scope.items()]
    head = ", ".join(bound + shown)
    return f"{head}: {fragment}" if head and fragment else head or fragment


class _Walker:
    def __init__(self, env: Mapping[str, Any], values: InputValues | None) -> None:
        self.evaluator = Evaluator(env, values)
        self.env = env
        self.values = values

    def value(self, node: Node, scope: Scope) -> Any:
        return self.evaluator.run(node, scope)

    def failing(self, node: Node, scope: Scope) -> tuple[Node, Scope, str]:
        """The sub-tree that makes `node` false, the comprehension scope it was false in, and what it compared."""
        try:
            match node:
                case BoolOp("and", operands):
                    for operand in operands:
                        if not self._holds(operand, scope, default=True):
                            return self.failing(operand, scope)
                case BoolOp("or", operands):
                    return self.failing(operands[-1], scope)
                case UnaryOp("not", operand):
                    return operand, scope, f"{to_text(operand)} holds"
                case IfExp(test, body, orelse):
                    return self.failing(body if self._holds(test, scope, default=True) else orelse, scope)
                case Compare():
                    return node, scope, self._comparison(node, scope)
                case Call("all", (Comprehension(_, element, clauses),)):
                    for inner in self.evaluator.bindings(clauses, scope):
                        if not self._holds(element, inner, default=True):
                            return self.failing(element, inner)
        except _FAILED:
            pass
        return node, scope, self._plain(node, scope)

    def _holds(self, node: Node, scope: Scope, *, default: bool) -> bool:
        try:
            return bool(self.value(node, scope))
        except _FAILED:
            return default

    def _comparison(self, node: Compare, scope: Scope) -> str:
        left = self.value(node.left, scope)
        for op, comparator in zip(node.ops, node.comparators, strict=True):
            right = self.value(comparator, scope)
            if not self.evaluator_compare(op, left, right):
                return f"{to_text(node)}: {_shown(left)} {NEGATED[op]} {_shown(right)}"
            left = right
        return f"{to_text(node)} holds"

    def evaluator_compare(self, op: str, left: Any, right: Any) -> bool:
        from opset.formula.comparisons import compare

        try:
            return compare(op, left, right, self.evaluator.budget)
        except _FAILED:
            return True  # undecided: not the failing step

    def _plain(self, node: Node, scope: Scope) -> str:
        try:
            return f"{to_text(node)} is {_shown(self.value(node, scope))}"
        except _FAILED:
            return to_text(node)

    def names_of(self, node: Node, scope: Scope, sources: Mapping[str, str]) -> list[str]:
        """`name is value` for each free name `node` reads (in order; an input's dims as the input's shape, a
        `value(X)` as X's values), loop variables left out (they are shown as bindings)."""
        shown: dict[str, str] = {}
        for name, in_value in _free_names(node, frozenset(scope)):
            if in_value:
                try:
                    got = self.evaluator.input_values(Name(name))
                except _FAILED:
                    continue
                shown.setdefault(f"value({name})", f"value({name}) is {_shown(got)}")
                continue
            source = sources.get(name)
            label = source if source is not None and source in self.env else name
            if label in shown:
                continue
            try:
                got = self.evaluator.lookup(label, {})
            except _FAILED:
                continue
            shown[label] = f"{label} is {_shown(got)}"
        return list(shown.values())


def _free_names(node: Node | Slice | ForClause, bound: frozenset[str]) -> list[tuple[str, bool]]:
    """(name, read through value(...)) for each free name, in order of first appearance."""
    found: dict[tuple[str, bool], None] = {}
    _collect(node, bound, found)
    return list(found)


def _collect(node: Node | Slice | ForClause, bound: frozenset[str], found: dict[tuple[str, bool], None]) -> None:
    if isinstance(node, Name):
        if node.id not in bound:
            found.setdefault((node.id, False), None)
        return
    if isinstance(node, Call) and node.function == "value" and node.args and isinstance(node.args[0], Name):
        found.setdefault((node.args[0].id, True), None)
        return
    if isinstance(node, Comprehension):
        inner = bound
        for clause in node.clauses:
            _collect(clause.iterable, inner, found)
            inner = inner | {clause.target}
            for condition in clause.conditions:
                _collect(condition, inner, found)
        _collect(node.element, inner, found)
        return
    for child in child_nodes(node):
        _collect(child, bound, found)


def _shown(value: Any) -> str:
    """A value as a formula would write it: lists in brackets, strings quoted, long lists cut."""
    if is_sequence(value):
        items = [_shown(v) for v in list(value)[:MAX_SHOWN_ITEMS]]
        more = f", ... ({len(value)} items)" if len(value) > MAX_SHOWN_ITEMS else ""
        text = "[" + ", ".join(items) + more + "]"
    elif isinstance(value, str):
        text = repr(value)
    else:
        text = str(value)
    return text if len(text) <= MAX_SHOWN_CHARS else text[:MAX_SHOWN_CHARS - 3] + "..."
