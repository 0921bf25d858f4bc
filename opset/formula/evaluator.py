"""Evaluation of a formula tree over an environment of concrete or symbolic values."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import partial
from typing import Any

from opset.formula.arithmetic import binary, is_sequence, type_name, unary
from opset.formula.comparisons import all_of, any_of, compare, truthy
from opset.formula.element_types import input_dtype
from opset.formula.errors import FormulaError, Undecided
from opset.formula.functions import FUNCTIONS
from opset.formula.graph_value import TYPES_KEY
from opset.formula.host_values import InputValues, flat_values, from_host
from opset.formula.indexing import item_at, sliced
from opset.formula.limits import MAX_STEPS, Budget, check_length
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

Scope = dict[str, Any]


class Evaluator:
    """One evaluation: the environment, the known input values and the step budget."""

    def __init__(self, env: Mapping[str, Any], values: InputValues | None) -> None:
        self.env = env
        self.values = values
        self.budget = Budget()
        self.converted: dict[str, Any] = {}
        # an environment may show the names it has bound as a plain dict (`bound`: each one's value as env[name] gives
        # it); the compiled closures read those without calling into the environment
        self.bound: dict[str, Any] | None = getattr(env, "bound", None)

    def run(self, node: Node, scope: Scope) -> Any:
        budget = self.budget
        budget.steps += 1  # inlined Budget.charge(): this is the hottest line of the language
        if budget.steps > MAX_STEPS:
            budget.charge(0)
        handler = _HANDLERS.get(type(node))
        if handler is None:
            raise FormulaError(f"cannot evaluate {node!r}")
        return handler(self, node, scope)

    def _const(self, node: Const, scope: Scope) -> Any:
        return node.value

    def _name(self, node: Name, scope: Scope) -> Any:
        return self.lookup(node.id, scope)

    def _binop(self, node: BinOp, scope: Scope) -> Any:
        return binary(node.op, self.run(node.left, scope), self.run(node.right, scope), self.budget)

    def _unaryop(self, node: UnaryOp, scope: Scope) -> Any:
        if node.op == "not":
            return not truthy(self.run(node.operand, scope))
        return unary(node.op, self.run(node.operand, scope))

    def _boolop(self, node: BoolOp, scope: Scope) -> Any:
        return self.boolean(node.op, node.values, scope)

    def _compare(self, node: Compare, scope: Scope) -> Any:
        return self.comparison(node.left, node.ops, node.comparators, scope)

    def _ifexp(self, node: IfExp, scope: Scope) -> Any:
        return self.run(node.body if truthy(self.run(node.test, scope)) else node.orelse, scope)

    def _subscript(self, node: Subscript, scope: Scope) -> Any:
        return self.subscript(self.run(node.value, scope), node.index, scope)

    def _list(self, node: ListDisplay, scope: Scope) -> Any:
        return [self.run(element, scope) for element in node.elements]

    def _tuple(self, node: TupleDisplay, scope: Scope) -> Any:
        return tuple(self.run(element, scope) for element in node.elements)

    def _comprehension(self, node: Comprehension, scope: Scope) -> Any:
        return self.comprehension(node.element, node.clauses, scope)

    def _call(self, node: Call, scope: Scope) -> Any:
        return self.call(node.function, node.args, scope)

    def lookup(self, name: str, scope: Scope) -> Any:
        if name in scope:
            return scope[name]
        if name not in self.converted:
            if name not in self.env:
                raise FormulaError(f"unknown name {name!r}")
            self.converted[name] = from_host(self.env[name], f"name {name!r}", self.budget)
        return self.converted[name]

    def boolean(self, op: str, operands: tuple[Node, ...], scope: Scope) -> Any:
        # an undecidable operand does not decide the whole: `N > M or True` is True, `N > M and False` False
        deciding = op == "or"
        undecided: Undecided | None = None
        result: Any = None
        for operand in operands:
            try:
                result = self.run(operand, scope)
                if truthy(result) == deciding:
                    return result
            except Undecided as e:
                undecided = e
        if undecided is not None:
            raise undecided
        return result

    def comparison(self, left: Node, ops: tuple[str, ...], comparators: tuple[Node, ...], scope: Scope) -> bool:
        current = self.run(left, scope)
        for op, comparator in zip(ops, comparators, strict=True):
            following = self.run(comparator, scope)
            if not compare(op, current, following, self.budget):
                return False
            current = following
        return True

    def subscript(self, container: Any, index: Node | Slice, scope: Scope) -> Any:
        if isinstance(index, Slice):
            parts = (index.lower, index.upper, index.step)
            lower, upper, step = (None if part is None else self.run(part, scope) for part in parts)
            return sliced(container, lower, upper, step, self.budget)
        return item_at(container, self.run(index, scope))

    def bindings(self, clauses: tuple[ForClause, ...], scope: Scope) -> Iterator[Scope]:
        """The scopes in which a comprehension's element is evaluated, in order."""
        if not clauses:
            yield scope
            return
        clause, rest = clauses[0], clauses[1:]
        iterable = self.run(clause.iterable, scope)
        if not (is_sequence(iterable) or isinstance(iterable, str)):
            raise FormulaError(f"cannot iterate over a {type_name(iterable)}")
        for item in iterable:
            self.budget.charge()
            inner = {**scope, clause.target: item}
            if all(truthy(self.run(condition, inner)) for condition in clause.conditions):
                yield from self.bindings(rest, inner)

    def comprehension(self, element: Node, clauses: tuple[ForClause, ...], scope: Scope) -> list[Any]:
        result = []
        for inner in self.bindings(clauses, scope):
            result.append(self.run(element, inner))
            check_length(len(result), "comprehension")
        return result

    def call(self, function: str, args: tuple[Node, ...], scope: Scope) -> Any:
        if function == "value":
            return self.input_values(args[0])
        if function == "type_of":
            return self.input_type(args[0])
        if function == "dtype":
            return self.input_element(args[0])
        if function in ("all", "any") and len(args) == 1 and isinstance(args[0], Comprehension):
            # Element by element, so one false element decides all() even when another is undecided.
            element, clauses = args[0].element, args[0].clauses
            checks = (partial(self.truth_of, element, inner) for inner in self.bindings(clauses, scope))
            return all_of(checks) if function == "all" else any_of(checks)
        return FUNCTIONS[function]([self.run(arg, scope) for arg in args], self.budget)

    def truth_of(self, node: Node, scope: Scope) -> bool:
        return truthy(self.run(node, scope))

    def input_type(self, node: Node) -> Any:
        """`type_of(X)`: the type string of input X (a list of them for a variadic input), where it is known."""
        if not isinstance(node, Name):
            raise FormulaError("type_of(...) takes exactly one input name")
        if node.id not in self.env:
            raise FormulaError(f"unknown name {node.id!r}")
        types = self.env[TYPES_KEY] if TYPES_KEY in self.env else None
        found = types.get(node.id) if types is not None else None
        if found is None or (isinstance(found, list | tuple) and any(t is None for t in found)):
            raise Undecided(f"the type of input {node.id!r} is not known")
        return list(found) if isinstance(found, list | tuple) else found

    def input_element(self, node: Node) -> Any:
        """`dtype(X)`: the element type name of input X (`'float'`; a list of them for a variadic input)."""
        return input_dtype(self.input_type(node), node.id if isinstance(node, Name) else "?")

    def input_values(self, node: Node) -> list[Any]:
        if not isinstance(node, Name):
            raise FormulaError("value(...) takes exactly one input name")
        if self.values is None or node.id not in self.values:
            raise Undecided(f"the values of input {node.id!r} are not known")
        return flat_values(self.values[node.id], f"value({node.id})", self.budget)


_HANDLERS: dict[type, Any] = {
    Const: Evaluator._const, Name: Evaluator._name, BinOp: Evaluator._binop, UnaryOp: Evaluator._unaryop,
    BoolOp: Evaluator._boolop, Compare: Evaluator._compare, IfExp: Evaluator._ifexp,
    Subscript: Evaluator._subscript, ListDisplay: Evaluator._list, TupleDisplay: Evaluator._tuple,
    Comprehension: Evaluator._comprehension, Call: Evaluator._call,
}

UNEXPECTED_ERRORS = (TypeError, ValueError, IndexError, KeyError, ArithmeticError, RecursionError, MemoryError)


def evaluate_tree(tree: Node, env: Mapping[str, Any], values: InputValues | None) -> Any:
    """Evaluate; only FormulaError or Undecided ever leave this function."""
    try:
        return Evaluator(env, values).run(tree, {})
    except (FormulaError, Undecided):
        raise
    except UNEXPECTED_ERRORS as error:
        raise FormulaError(f"internal error evaluating formula: {type(error).__name__}: {error}") from error
