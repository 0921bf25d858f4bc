"""A formula tree turned once into nested Python closures: the fast path of evaluation.

`compile_tree(tree)` gives a function of an `Evaluator` and a comprehension scope that does what the walked
`Evaluator.run` does for the same tree, step for step: the same step budget (one step a node visited), the same
evaluation order, the same helpers (`binary`, `compare`, `item_at` ...), so the same values and the same errors.
Only the per-node dispatch is gone (a type look-up and a handler call per node), and the commonest operations
on two plain ints (arithmetic, comparison, indexing a list) take a short path that gives what the general
helper gives for them (anything else, and every error, goes through the helper). Each closure charges its step
inline (`budget.steps += 1`, then the limit), as `Evaluator.run` does: a call per node for it would cost what the
dispatch cost. Nothing is generated as source text and nothing is `eval`ed: a closure is built per tree node.
The walked evaluator stays the reference: `opset.formula.formula.walked_evaluation()` switches back to it.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator, Mapping
from functools import partial
from typing import Any

from opset.formula.arithmetic import binary, is_sequence, type_name, unary
from opset.formula.comparisons import all_of, any_of, compare, truthy
from opset.formula.errors import FormulaError, Undecided
from opset.formula.evaluator import UNEXPECTED_ERRORS, Evaluator, Scope
from opset.formula.functions import FUNCTIONS
from opset.formula.host_values import InputValues
from opset.formula.indexing import item_at, sliced
from opset.formula.limits import MAX_INT_MAGNITUDE, MAX_LIST_LENGTH, MAX_STEPS, check_length
from opset.formula.nodes import (
    INPUT_FORMS,
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

Code = Callable[[Evaluator, Scope], Any]

_INTS = {int}

# comparisons of two plain ints or two strings (`compare` on them: one step, then Python's own comparison)
_PLAIN_COMPARISONS: dict[str, Callable[[int, int], bool]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


def compiled_evaluation(tree: Node) -> Callable[[Mapping[str, Any], InputValues | None], Any]:
    """The tree compiled: a function of the environment and the known input values that, as
    `opset.formula.evaluator.evaluate_tree`, lets only FormulaError or Undecided leave it."""
    code = compile_tree(tree)

    def evaluate(env: Mapping[str, Any], values: InputValues | None) -> Any:
        try:
            return code(Evaluator(env, values), {})
        except (FormulaError, Undecided):
            raise
        except UNEXPECTED_ERRORS as error:
            raise FormulaError(f"internal error evaluating formula: {type(error).__name__}: {error}") from error
    return evaluate


def compile_tree(node: Node) -> Code:
    """The closure evaluating `node`."""
    maker = _MAKERS.get(type(node))
    if maker is None:
        return _refused(node)
    code: Code = maker(node)
    return code


def _refused(node: object) -> Code:
    def run(ev: Evaluator, scope: Scope) -> Any:
        budget = ev.budget
        budget.steps += 1
        if budget.steps > MAX_STEPS:
            budget.charge(0)
        raise FormulaError(f"cannot evaluate {node!r}")
    return run


def _const(node: Const) -> Code:
    value = node.value

    def run(ev: Evaluator, scope: Scope) -> Any:
        budget = ev.budget
        budget.steps += 1
        if budget.steps > MAX_STEPS:
            budget.charge(0)
        return value
    return run


def _name(node: Name) -> Code:
    name = node.id

    def run(ev: Evaluator, scope: Scope) -> Any:
        budget = ev.budget
        budget.steps += 1
        if budget.steps > MAX_STEPS:
            budget.charge(0)
        if name in scope:
            return scope[name]
        converted = ev.converted
        if name in converted:
            return converted[name]
        bound = ev.bound
        if bound is not None and name in bound:  # (a dict: no call into the environment's own lookup)
            raw = bound[name]
        else:
            env = ev.env
            if name not in env:
                return ev.lookup(name, scope)  # which says it is not a name
            raw = env[name]
        kind = type(raw)
        if kind is int or kind is str or raw is None:
            cost = 1
        elif kind is list and len(raw) <= MAX_LIST_LENGTH and (not raw or set(map(type, raw)) == _INTS):
            cost = 1 + len(raw)
        else:
            return ev.lookup(name, scope)
        # what `from_host` returns for a plain value, and the steps it charges: the value is taken as it is
        budget.steps += cost
        if budget.steps > MAX_STEPS:
            budget.charge(0)
        converted[name] = raw
        return raw
    return run


def _exact_quotient(left: int, right: int) -> int | None:
    """`left / right` when it is an int (the formula language's `/` is exact), else None."""
    return left // right if right != 0 and left % right == 0 else None


# int op int where `binary` would give the plain int result (after its checks); None: let `binary` decide
_INT_OPS: dict[str, Callable[[int, int], int | None]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": _exact_quotient,
    "//": lambda a, b: a // b if b != 0 else None, "%": lambda a, b: a % b if b != 0 else None,
}


def _binop(node: BinOp) -> Code:
    op, left, right = node.op, compile_tree(node.left), compile_tree(node.right)
    on_ints = _INT_OPS.get(op)

    def run(ev: Evaluator, scope: Scope) -> Any:
        budget = ev.budget
        budget.steps += 1
        if budget.steps > MAX_STEPS:
            budget.charge(0)
        a, b = left(ev, scope), right(ev, scope)
        if on_ints is not None and type(a) is int and type(b) is int:  # the common case: two plain ints
            got = on_ints(a, b)
            if got is not None and -MAX_INT_MAGNITUDE <= got <= MAX_INT_MAGNITUDE:
                return got
        return binary(op, a, b, budget)  # everything else, and the errors, as the walked evaluator
    return run


def _unaryop(node: UnaryOp) -> Code:
    op, operand = node.op, compile_tree(node.operand)
    if op == "not":
        def negated(ev: Evaluator, scope: Scope) -> Any:
            budget = ev.budget
            budget.steps += 1
            if budget.steps > MAX_STEPS:
                budget.charge(0)
            return not truthy(operand(ev, scope))
        return negated

    def run(ev: Evaluator, scope: Scope) -> Any:
        budget = ev.budget
        budget.steps += 1
        if budget.steps > MAX_STEPS:
            budget.charge(0)
        return unary(op, operand(ev, scope))
    return run


def _boolop(node: BoolOp) -> Code:
    deciding = node.op == "or"
    operands = tuple(compile_tree(v) for v in node.values)

    def run(ev: Evaluator, scope: Scope) -> Any:
        # an undecidable operand does not decide the whole: `N > M or True` is True, `N > M and False` False
        budget = ev.budget
        budget.steps += 1
        if budget.steps > MAX_STEPS:
            budget.charge(0)
        undecided: Undecided | None = None
        result: Any = None
        for operand in operands:
            try:
                result = operand(ev, scope)
                if truthy(result) == deciding:
                    return result
            except Undecided as e:
                undecided = e
        if undecided is not None:
            raise undecided
        return result
    return run


def _compare(node: Compare) -> Code:
    left = compile_tree(node.left)
    steps = tuple(zip(node.ops, (compile_tree(c) for c in node.comparators), strict=True))

    def run(ev: Evaluator, scope: Scope) -> Any:
        budget = ev.budget
        budget.steps += 1
        if budget.steps > MAX_STEPS:
            budget.charge(0)
        current = left(ev, scope)
        for op, comparator in steps:
            following = comparator(ev, scope)
            kind = type(current)
            plain = _PLAIN_COMPARISONS.get(op) if (kind is int or kind is str) and type(following) is kind else None
            if plain is not None:  # two ints, two strings: `compare` charges one step and compares them as they are
                budget.steps += 1
                if budget.steps > MAX_STEPS:
                    budget.charge(0)
                if not plain(current, following):
                    return False
            elif not compare(op, current, following, budget):
                return False
            current = following
        return True
    return run


def _ifexp(node: IfExp) -> Code:
    test, body, orelse = compile_tree(node.test), compile_tree(node.body), compile_tree(node.orelse)

    def run(ev: Evaluator, scope: Scope) -> Any:
        budget = ev.budget
        budget.steps += 1
        if budget.steps > MAX_STEPS:
            budget.charge(0)
        return body(ev, scope) if truthy(test(ev, scope)) else orelse(ev, scope)
    return run


def _subscript(node: Subscript) -> Code:
    value = compile_tree(node.value)
    index = node.index
    if isinstance(index, Slice):
        parts = tuple(None if p is None else compile_tree(p) for p in (index.lower, index.upper, index.step))

        def sliced_run(ev: Evaluator, scope: Scope) -> Any:
            budget = ev.budget
            budget.steps += 1
            if budget.steps > MAX_STEPS:
                budget.charge(0)
            container = value(ev, scope)
            lower, upper, step = (None if part is None else part(ev, scope) for part in parts)
            return sliced(container, lower, upper, step, budget)
        return sliced_run
    position = compile_tree(index)

    def run(ev: Evaluator, scope: Scope) -> Any:
        budget = ev.budget
        budget.steps += 1
        if budget.steps > MAX_STEPS:
            budget.charge(0)
        container = value(ev, scope)
        index = position(ev, scope)
        kind = type(container)
        if (kind is list or kind is tuple) and type(index) is int and -len(container) <= index < len(container):
            return container[index]  # what `item_at` gives after its checks
        return item_at(container, index)
    return run


def _list(node: ListDisplay) -> Code:
    elements = tuple(compile_tree(e) for e in node.elements)

    def run(ev: Evaluator, scope: Scope) -> Any:
        budget = ev.budget
        budget.steps += 1
        if budget.steps > MAX_STEPS:
            budget.charge(0)
        return [element(ev, scope) for element in elements]
    return run


def _tuple(node: TupleDisplay) -> Code:
    elements = tuple(compile_tree(e) for e in node.elements)

    def run(ev: Evaluator, scope: Scope) -> Any:
        budget = ev.budget
        budget.steps += 1
        if budget.steps > MAX_STEPS:
            budget.charge(0)
        return tuple(element(ev, scope) for element in elements)
    return run


_Clause = tuple[str, Code, tuple[Code, ...]]


def _clauses(clauses: tuple[ForClause, ...]) -> tuple[_Clause, ...]:
    return tuple((c.target, compile_tree(c.iterable), tuple(compile_tree(x) for x in c.conditions)) for c in clauses)


def _bindings(ev: Evaluator, clauses: tuple[_Clause, ...], scope: Scope) -> Iterator[Scope]:
    """The scopes in which a comprehension's element is evaluated, in order (as `Evaluator.bindings`)."""
    if not clauses:
        yield scope
        return
    (target, iterable_code, conditions), rest = clauses[0], clauses[1:]
    iterable = iterable_code(ev, scope)
    if not (is_sequence(iterable) or isinstance(iterable, str)):
        raise FormulaError(f"cannot iterate over a {type_name(iterable)}")
    for item in iterable:
        ev.budget.charge()
        inner = {**scope, target: item}
        if all(truthy(condition(ev, inner)) for condition in conditions):
            yield from _bindings(ev, rest, inner)


def _comprehension(node: Comprehension) -> Code:
    element, clauses = compile_tree(node.element), _clauses(node.clauses)

    def run(ev: Evaluator, scope: Scope) -> Any:
        budget = ev.budget
        budget.steps += 1
        if budget.steps > MAX_STEPS:
            budget.charge(0)
        result = []
        for inner in _bindings(ev, clauses, scope):
            result.append(element(ev, inner))
            check_length(len(result), "comprehension")
        return result
    return run


def _truth(element: Code, ev: Evaluator, scope: Scope) -> bool:
    return truthy(element(ev, scope))


def _call(node: Call) -> Code:
    function, args = node.function, node.args
    if function in INPUT_FORMS:
        read = _INPUT_READERS[function]

        def special(ev: Evaluator, scope: Scope) -> Any:
            budget = ev.budget
            budget.steps += 1
            if budget.steps > MAX_STEPS:
                budget.charge(0)
            return read(ev, args[0])
        return special
    if function in ("all", "any") and len(args) == 1 and isinstance(args[0], Comprehension):
        # element by element, so one false element decides all() even when another is undecided
        element, clauses = compile_tree(args[0].element), _clauses(args[0].clauses)
        combine = all_of if function == "all" else any_of

        def quantified(ev: Evaluator, scope: Scope) -> Any:
            budget = ev.budget
            budget.steps += 1
            if budget.steps > MAX_STEPS:
                budget.charge(0)
            return combine(partial(_truth, element, ev, inner) for inner in _bindings(ev, clauses, scope))
        return quantified
    arguments = tuple(compile_tree(a) for a in args)

    def run(ev: Evaluator, scope: Scope) -> Any:
        budget = ev.budget
        budget.steps += 1
        if budget.steps > MAX_STEPS:
            budget.charge(0)
        implementation = FUNCTIONS[function]  # looked up first, as the walked evaluator does
        return implementation([argument(ev, scope) for argument in arguments], budget)
    return run


# the special forms over an input's name, each read by the walked evaluator's own method
_INPUT_READERS: dict[str, Callable[[Evaluator, Node], Any]] = {
    "value": Evaluator.input_values, "type_of": Evaluator.input_type, "dtype": Evaluator.input_element}

_MAKERS: dict[type, Callable[[Any], Code]] = {
    Const: _const, Name: _name, BinOp: _binop, UnaryOp: _unaryop, BoolOp: _boolop, Compare: _compare,
    IfExp: _ifexp, Subscript: _subscript, ListDisplay: _list, TupleDisplay: _tuple, Comprehension: _comprehension,
    Call: _call,
}
