"""A checked formula tree written as the Python source of one function (what `gen formulas` commits).

The function does what `opset.formula.compiled` and the walked evaluator do for the tree, step for step: one step
charged per node on entry (consecutive charges with nothing between them are added up: nothing can raise between
them, so the budget runs out at the same point), children evaluated in the same order, the same helpers
(`binary`, `compare`, `item_at` ...) and the same short paths for two plain ints.

What reaches the source, and how:
- identifiers: only the closed vocabulary of `opset.formula.emitted` (`VOCABULARY`), the builtins `type`, `len`,
  `isinstance`, `int`, `str`, `list`, `tuple`, and locals the emitter numbers itself (`t1`, `c2`, `u3` ...). A formula
  name becomes `load(ev, 'N')` (its `repr`), a comprehension variable a numbered local; operators and function
  names are mapped through the tables below, never copied.
- literals: `repr` of the ints, floats, strings, bools and None the parser produced (an infinite float as `INF`).
A tree the emitter cannot write exactly (an unknown node or operator, an int too long for `repr`) raises
`NotEmitted`: that formula gets no generated function and runs compiled as before.
"""

from __future__ import annotations

import math

from opset.formula.functions import FUNCTIONS
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


class NotEmitted(Exception):
    """The tree has something the emitter does not write (it runs compiled instead)."""


# formula operator -> the Python operator of its short path on two plain ints (None: no short path)
_INT_OPERATORS: dict[str, str | None] = {"+": "+", "-": "-", "*": "*", "/": "//", "//": "//", "%": "%", "**": None}
_PLAIN_COMPARISONS: dict[str, str | None] = {
    "==": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">=", "in": None, "not in": None}
_UNARY = ("-", "+")
_INPUT_FORMS = {form: form for form in INPUT_FORMS}
_QUANTIFIERS = {"all": "all", "any": "any"}
_ROUNDINGS = ("floor", "ceil")
_FUNCTIONS = {name: name for name in FUNCTIONS}

Scope = dict[str, str]  # comprehension variable -> its local


def literal(value: object) -> str:
    """The Python literal of a parsed constant."""
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        try:
            return repr(value)
        except ValueError as error:  # more digits than int's str conversion allows
            raise NotEmitted(f"int constant too long: {error}") from error
    if isinstance(value, float):
        if math.isnan(value):
            return "NAN"
        if math.isinf(value):
            return "INF" if value > 0 else "(-INF)"
        return repr(value)
    if isinstance(value, str):
        return repr(value)
    raise NotEmitted(f"constant of type {type(value).__name__}")


class FunctionWriter:
    """Writes one function `def NAME(ev: Evaluator) -> Any:` evaluating a tree."""

    def __init__(self, name: str) -> None:
        self.lines = [f"def {name}(ev: Evaluator) -> Any:", "    b = ev.budget"]
        self.depth = 1
        self.count = 0
        self.pending = 0  # steps charged by nodes but not yet written out
        self.known: dict[str, type] = {}  # literal or local -> the type of its value, where the source fixes it
        self.known_items: dict[str, type] = {}  # local of a display of int or str constants only -> their type
        # free name -> the local its value was loaded into, where that load has surely run (this block or one around
        # it, earlier): a name's value does not change within an evaluation, so it is read once per such region
        self.loaded: dict[str, str] = {}
        self.outer_loads: list[dict[str, str]] = []

    # ---- the writing machinery -------------------------------------------------------------------------------
    def local(self, prefix: str) -> str:
        self.count += 1
        return f"{prefix}{self.count}"

    def flush(self) -> None:
        if self.pending:
            pad = "    " * self.depth
            self.lines += [f"{pad}b.steps += {self.pending}", f"{pad}if b.steps > MAX_STEPS: b.charge(0)"]
            self.pending = 0

    def line(self, text: str, *, pure: bool = False) -> None:
        """A statement; a `pure` one (it neither raises nor charges) does not write out the pending steps first."""
        if not pure:
            self.flush()
        self.lines.append("    " * self.depth + text)

    def open(self, header: str) -> int:
        self.line(header)
        self.depth += 1
        self.outer_loads.append(dict(self.loaded))
        return len(self.lines)

    def close(self, opened: int) -> None:
        self.flush()
        if len(self.lines) == opened:
            self.lines.append("    " * self.depth + "pass")
        self.depth -= 1
        self.loaded = self.outer_loads.pop()  # what the block loaded may not have run

    def source(self, tree: Node) -> str:
        result = self.expr(tree, {})
        self.line(f"return {result}")
        return "\n".join(self.lines) + "\n"

    # ---- nodes: each returns an expression without side effects (a local or a literal) ---------------------------
    def expr(self, node: Node, scope: Scope) -> str:
        self.pending += 1  # the node's own step, on entry
        match node:
            case Const(value):
                text = literal(value)
                self.known[text] = type(value)
                return text
            case Name(name):
                if name in scope:
                    return scope[name]
                if name in self.loaded:  # `load` would give the same value again, charging nothing
                    return self.loaded[name]
                out = self.local("t")
                self.line(f"{out} = load(ev, {name!r})")
                self.loaded[name] = out
                return out
            case BinOp():
                return self.binop(node, scope)
            case UnaryOp():
                return self.unaryop(node, scope)
            case BoolOp():
                return self.boolop(node, scope)
            case Compare():
                return self.compare(node, scope)
            case IfExp(test, body, orelse):
                condition, out = self.expr(test, scope), self.local("t")
                self.line(f"{out}: Any", pure=True)
                opened = self.open(f"if truthy({condition}):")
                self.line(f"{out} = {self.expr(body, scope)}")
                self.close(opened)
                opened = self.open("else:")
                self.line(f"{out} = {self.expr(orelse, scope)}")
                self.close(opened)
                return out
            case Subscript():
                return self.subscript(node, scope)
            case ListDisplay(elements):
                items = [self.expr(e, scope) for e in elements]
                out = self.local("t")
                self.line(f"{out}: list[Any] = [{', '.join(items)}]", pure=True)
                self.known[out] = list
                self.note_items(out, items)
                return out
            case TupleDisplay(elements):
                items = [self.expr(e, scope) for e in elements]
                out = self.local("t")
                self.line(f"{out}: tuple[Any, ...] = ({''.join(item + ', ' for item in items)})", pure=True)
                self.known[out] = tuple
                self.note_items(out, items)
                return out
            case Comprehension(_, element, clauses):
                out = self.local("t")
                self.line(f"{out}: list[Any] = []")
                self.known[out] = list
                self.clauses(clauses, scope, lambda inner: self.append(out, element, inner), None)
                return out
            case Call():
                return self.call(node, scope)
        raise NotEmitted(f"node {type(node).__name__}")

    def note_items(self, out: str, items: list[str]) -> None:
        kinds = {self.known.get(item) for item in items}
        if len(kinds) == 1 and (kind := kinds.pop()) in (int, str) and all(i in self.known for i in items):
            self.known_items[out] = kind

    def binop(self, node: BinOp, scope: Scope) -> str:
        if node.op not in _INT_OPERATORS:
            raise NotEmitted(f"operator {node.op!r}")
        left, right = self.expr(node.left, scope), self.expr(node.right, scope)
        out, fast = self.local("t"), _INT_OPERATORS[node.op]
        known = [self.known.get(side) for side in (left, right)]
        if fast is None or any(kind is not None and kind is not int for kind in known):
            self.line(f"{out} = binary({node.op!r}, {left}, {right}, b)")  # no short path (or never two ints)
            return out
        tests = [f"type({side}) is int" for side, kind in zip((left, right), known, strict=True) if kind is None]
        if node.op in ("/", "//", "%"):
            if known[1] is int and int(right) == 0:  # a division by the constant 0: `binary` says so
                self.line(f"{out} = binary({node.op!r}, {left}, {right}, b)")
                return out
            tests += [] if known[1] is int else [f"{right} != 0"]
        if node.op == "/":
            tests += [f"{left} % {right} == 0"]
        # two plain ints whose result is in range: the result as it is; anything else through `binary`
        result = self.local("r")
        tests.append(f"-MAX_INT_MAGNITUDE <= ({result} := {left} {fast} {right}) <= MAX_INT_MAGNITUDE")
        self.line(f"{out} = {result} if {' and '.join(tests)} else binary({node.op!r}, {left}, {right}, b)")
        return out

    def unaryop(self, node: UnaryOp, scope: Scope) -> str:
        operand, out = self.expr(node.operand, scope), self.local("t")
        if node.op == "not":
            self.line(f"{out} = not truthy({operand})")
            self.known[out] = bool
        elif node.op in _UNARY:
            self.line(f"{out} = unary({node.op!r}, {operand})")
        else:
            raise NotEmitted(f"unary operator {node.op!r}")
        return out

    def boolop(self, node: BoolOp, scope: Scope) -> str:
        # an undecidable operand does not decide the whole; the last Undecided is raised when none decides
        if node.op not in ("and", "or"):
            raise NotEmitted(f"boolean operator {node.op!r}")
        out, undecided, decided = self.local("t"), self.local("u"), self.local("d")
        self.line(f"{out}: Any = None")
        self.line(f"{undecided}: Undecided | None = None")
        self.line(f"{decided} = False")
        test = "truthy" if node.op == "or" else "not truthy"
        opened_ifs = []
        for position, operand in enumerate(node.values):
            if position:
                opened_ifs.append(self.open(f"if not {decided}:"))
            opened = self.open("try:")
            value = self.expr(operand, scope)
            self.line(f"{out} = {value}")
            self.line(f"{decided} = {test}({out})")
            self.close(opened)
            error = self.local("e")
            opened = self.open(f"except Undecided as {error}:")
            self.line(f"{undecided} = {error}")
            self.close(opened)
        for opened in reversed(opened_ifs):
            self.close(opened)
        opened = self.open(f"if not {decided} and {undecided} is not None:")
        self.line(f"raise {undecided}")
        self.close(opened)
        return out

    def compare(self, node: Compare, scope: Scope) -> str:
        if len(node.ops) != len(node.comparators):
            raise NotEmitted("comparison of uneven length")
        out = self.local("t")
        self.line(f"{out} = False")
        self.known[out] = bool
        current = self.expr(node.left, scope)
        opened_ifs = []
        for op, comparator in zip(node.ops, node.comparators, strict=True):
            if op not in _PLAIN_COMPARISONS:
                raise NotEmitted(f"comparison {op!r}")
            following, holds, plain = self.expr(comparator, scope), self.local("k"), _PLAIN_COMPARISONS[op]
            plain_test = None if plain is None else self.plain_pair(current, following)
            items = self.known_items.get(following) if op in ("in", "not in") else None
            if items is not None and self.known.get(current, items) is items:
                # an int or a str in a display of such constants: `contains` charges a step per element compared
                opened = self.open(f"if type({current}) is {items.__name__}:")
                self.line(f"{holds} = {current} {op} {following}", pure=True)
                self.line(f"b.steps += {following}.index({current}) + 1 if {current} in {following} "
                          f"else len({following})", pure=True)
                self.line("if b.steps > MAX_STEPS: b.charge(0)", pure=True)
                self.close(opened)
                opened = self.open("else:")
                self.line(f"{holds} = compare({op!r}, {current}, {following}, b)")
                self.close(opened)
            elif plain_test is None:
                self.line(f"{holds} = compare({op!r}, {current}, {following}, b)")
            else:
                opened = self.open(f"if {plain_test}:")
                self.pending += 1  # `compare` charges one step
                self.line(f"{holds} = {current} {plain} {following}")
                self.close(opened)
                opened = self.open("else:")
                self.line(f"{holds} = compare({op!r}, {current}, {following}, b)")
                self.close(opened)
            opened_ifs.append(self.open(f"if {holds}:"))
            current = following
        self.line(f"{out} = True")
        for opened in reversed(opened_ifs):
            self.close(opened)
        return out

    def plain_pair(self, left: str, right: str) -> str | None:
        """The test that two values are two ints or two strings (None: they never are)."""
        kinds = (self.known.get(left), self.known.get(right))
        if any(kind is not None and kind not in (int, str) for kind in kinds):
            return None
        if kinds[0] is not None and kinds[1] is not None:
            return None  # two constants: `compare` itself (the same step, the same answer)
        if kinds[0] is not None:
            return f"type({right}) is {kinds[0].__name__}"
        if kinds[1] is not None:
            return f"type({left}) is {kinds[1].__name__}"
        kind = self.local("q")  # (through a local: a test on type(left) itself would narrow it for mypy to int | str)
        return f"(({kind} := type({left})) is int or {kind} is str) and type({right}) is {kind}"

    def subscript(self, node: Subscript, scope: Scope) -> str:
        container, index = self.expr(node.value, scope), node.index
        out = self.local("t")
        if isinstance(index, Slice):
            parts = [("None" if part is None else self.expr(part, scope)) for part in (index.lower, index.upper,
                                                                                      index.step)]
            self.line(f"{out} = sliced({container}, {', '.join(parts)}, b)")
            return out
        position = self.expr(index, scope)
        container_kind, position_kind = self.known.get(container), self.known.get(position)
        if (container_kind is not None and container_kind not in (list, tuple)) or \
                (position_kind is not None and position_kind is not int):
            self.line(f"{out} = item_at({container}, {position})")  # never a list indexed by an int
            return out
        tests = [] if container_kind is not None else [f"(type({container}) is list or type({container}) is tuple)"]
        tests += [] if position_kind is int else [f"type({position}) is int"]
        tests.append(f"-len({container}) <= {position} < len({container})")
        self.line(f"{out} = {container}[{position}] if {' and '.join(tests)} else item_at({container}, {position})")
        return out
        int_test = "" if position_kind is int else f"type({position}) is int and "
        self.line(f"{out} = {container}[{position}] if (type({container}) is list or type({container}) is tuple) and "
                  f"{int_test}-len({container}) <= {position} < len({container}) else item_at({container}, {position})")
        return out
        int_test = "" if position_kind is int else f"type({position}) is int and "
        opened = self.open(f"if (type({container}) is list or type({container}) is tuple) and "
                           f"{int_test}-len({container}) <= {position} < len({container}):")
        self.line(f"{out} = {container}[{position}]")
        self.close(opened)
        opened = self.open("else:")
        self.line(f"{out} = item_at({container}, {position})")
        self.close(opened)
        return out

    def append(self, out: str, element: Node, scope: Scope) -> None:
        self.line(f"{out}.append({self.expr(element, scope)})")
        self.line(f"check_length(len({out}), 'comprehension')")

    def clauses(self, clauses: tuple[ForClause, ...], scope: Scope, body: object, stop: str | None) -> None:
        """Nested loops over the clauses (as `Evaluator.bindings`), `body(scope)` innermost; `stop`: a flag
        that, once true, leaves every loop."""
        if not clauses:
            assert callable(body)
            body(scope)
            return
        clause, rest = clauses[0], clauses[1:]
        iterable = self.expr(clause.iterable, scope)
        variable = self.local("c")
        inner = {**scope, clause.target: variable}
        opened_loop = self.open(f"for {variable} in iterated({iterable}):")
        self.pending += 1  # each item charges a step
        opened_ifs = [self.open(f"if truthy({self.expr(condition, inner)}):") for condition in clause.conditions]
        self.clauses(rest, inner, body, stop)
        for opened in reversed(opened_ifs):
            self.close(opened)
        if stop is not None:
            opened = self.open(f"if {stop}:")
            self.line("break")
            self.close(opened)
        self.close(opened_loop)

    def call(self, node: Call, scope: Scope) -> str:
        function, args = node.function, node.args
        out = self.local("t")
        if function in _INPUT_FORMS:
            if len(args) != 1 or not isinstance(args[0], Name):
                raise NotEmitted(f"{function}(...) of something other than one name")
            self.line(f"{out} = read_input(ev, {_INPUT_FORMS[function]!r}, {args[0].id!r})")
            return out
        if function in _QUANTIFIERS and len(args) == 1 and isinstance(args[0], Comprehension):
            return self.quantified(out, _QUANTIFIERS[function], args[0], scope)
        if function not in _FUNCTIONS:
            raise NotEmitted(f"function {function!r}")
        if function in _ROUNDINGS and len(args) == 1 and isinstance(args[0], BinOp) and args[0].op == "/":
            return self.rounded_quotient(out, function, args[0], scope)
        values = [self.expr(arg, scope) for arg in args]
        self.line(f"{out} = FUNCTIONS[{_FUNCTIONS[function]!r}]([{', '.join(values)}], b)")
        return out

    def rounded_quotient(self, out: str, function: str, quotient: BinOp, scope: Scope) -> str:
        """`floor(a / b)`, `ceil(a / b)`: for two plain ints (b not 0, both within the int bound, so the exact quotient
        is a fraction `binary` accepts) Python's floor division gives what floor of that fraction gives; anything
        else through `binary` and the function, as the walker (neither charges a step for two numbers)."""
        self.pending += 1  # the quotient's own step
        left, right = self.expr(quotient.left, scope), self.expr(quotient.right, scope)
        known = [self.known.get(side) for side in (left, right)]
        general = f"FUNCTIONS[{_FUNCTIONS[function]!r}]([binary('/', {left}, {right}, b)], b)"
        if any(kind is not None and kind is not int for kind in known) or (known[1] is int and int(right) == 0):
            self.line(f"{out} = {general}")
            return out
        tests = [f"type({side}) is int and -MAX_INT_MAGNITUDE <= {side} <= MAX_INT_MAGNITUDE"
                 for side, kind in zip((left, right), known, strict=True) if kind is None]
        tests += [] if known[1] is int else [f"{right} != 0"]
        fast = f"{left} // {right}" if function == "floor" else f"-(-{left} // {right})"
        self.line(f"{out} = {fast} if {' and '.join(tests) or 'True'} else {general}")
        return out

    def quantified(self, out: str, function: str, comprehension: Comprehension, scope: Scope) -> str:
        """`all(... for ...)` / `any(...)` element by element (`all_of`, `any_of`): the first element that decides
        ends it, an Undecided element is kept (the first one) and raised when none decides."""
        undecided, stop = self.local("u"), self.local("d")
        deciding = "False" if function == "all" else "True"
        self.line(f"{out} = {'True' if function == 'all' else 'False'}")
        self.line(f"{undecided}: Undecided | None = None")
        self.line(f"{stop} = False")

        def element(inner: Scope) -> None:
            holds, error = self.local("k"), self.local("e")
            opened = self.open("try:")
            self.line(f"{holds} = truthy({self.expr(comprehension.element, inner)})")
            self.close(opened)
            opened = self.open(f"except Undecided as {error}:")
            self.line(f"{holds} = {'True' if function == 'all' else 'False'}")
            opened_if = self.open(f"if {undecided} is None:")
            self.line(f"{undecided} = {error}")
            self.close(opened_if)
            self.close(opened)
            opened = self.open(f"if {holds} is {deciding}:")
            self.line(f"{out} = {deciding}")
            self.line(f"{stop} = True")
            self.close(opened)

        self.clauses(comprehension.clauses, scope, element, stop)
        opened = self.open(f"if not {stop} and {undecided} is not None:")
        self.line(f"raise {undecided}")
        self.close(opened)
        return out


def function_source(name: str, tree: Node) -> str:
    """The source of `def name(ev: Evaluator) -> Any` evaluating `tree`; NotEmitted if it cannot be written."""
    if not name.isidentifier() or not name.startswith("_f"):
        raise ValueError(f"not a generated function name: {name!r}")
    return FunctionWriter(name).source(tree)
