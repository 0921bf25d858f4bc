"""Text -> syntax tree: ``ast.parse`` in eval mode, then a walk over a whitelist of node types."""

from __future__ import annotations

import ast
import warnings
from collections.abc import Mapping

from opset.formula.errors import FormulaError
from opset.formula.nodes import (
    FUNCTION_NAMES,
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

MAX_TEXT_LENGTH = 4_000
MAX_NESTING_DEPTH = 64

_BINARY: dict[type[ast.AST], str] = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%", ast.Pow: "**",
}
_UNARY: dict[type[ast.AST], str] = {ast.USub: "-", ast.UAdd: "+", ast.Not: "not"}
_COMPARE: dict[type[ast.AST], str] = {
    ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.In: "in",
    ast.NotIn: "not in",
}
_REFUSED = {
    ast.Attribute: "attribute access",
    ast.Lambda: "lambda",
    ast.NamedExpr: "assignment expression (:=)",
    ast.JoinedStr: "f-string",
    ast.FormattedValue: "f-string",
    ast.Dict: "dict display",
    ast.Set: "set display",
    ast.DictComp: "dict comprehension",
    ast.SetComp: "set comprehension",
    ast.Starred: "starred expression",
    ast.Await: "await",
    ast.Yield: "yield",
    ast.YieldFrom: "yield",
    ast.Slice: "slice outside a subscript",
}


def parse_tree(text: str) -> Node:
    """Parse formula text into a tree; raises FormulaError naming the refused construct and its column."""
    if not isinstance(text, str):
        raise FormulaError(f"a formula must be a string, not {type(text).__name__}")
    if len(text) > MAX_TEXT_LENGTH:
        raise FormulaError(f"formula is {len(text)} characters long; the limit is {MAX_TEXT_LENGTH}", text=text[:80])
    if not text.strip():
        raise FormulaError("empty formula", text=text)
    try:
        with warnings.catch_warnings():
            # Python warns about things like `1if x else 2`; the formula's own checks decide what is allowed.
            warnings.simplefilter("ignore", SyntaxWarning)
            warnings.simplefilter("ignore", DeprecationWarning)
            tree = ast.parse(text.lstrip(), mode="eval")
    except SyntaxError as error:
        column = None if error.offset is None else error.offset + len(text) - len(text.lstrip())
        raise FormulaError(f"syntax error: {error.msg}", text=text, column=column) from error
    except (RecursionError, MemoryError, ValueError) as error:
        raise FormulaError("formula is nested too deeply to parse", text=text) from error
    _check_depth(tree.body, text)
    return _Converter(text.lstrip(), len(text) - len(text.lstrip())).convert(tree.body)


def _check_depth(root: ast.expr, text: str) -> None:
    # Iterative on purpose: this runs before any recursive walk may overflow the stack.
    stack: list[tuple[ast.AST, int]] = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_NESTING_DEPTH:
            raise FormulaError(f"formula nests deeper than {MAX_NESTING_DEPTH} levels", text=text)
        for child in ast.iter_child_nodes(node):
            stack.append((child, depth + 1 if isinstance(child, ast.expr) else depth))


class _Converter:
    def __init__(self, text: str, indent: int) -> None:
        self.text = text
        self.indent = indent  # characters stripped before parsing, added back to columns
        self.line_starts = [0]
        for line in text.split("\n")[:-1]:
            self.line_starts.append(self.line_starts[-1] + len(line) + 1)

    def error(self, message: str, node: ast.AST) -> FormulaError:
        return FormulaError(message, text=self.text, column=self.column_of(node))

    def column_of(self, node: ast.AST) -> int | None:
        line: int | None = getattr(node, "lineno", None)
        byte_offset: int | None = getattr(node, "col_offset", None)
        if line is None or byte_offset is None:
            return None
        start = self.line_starts[line - 1]
        line_text = self.text[start:].split("\n", 1)[0]
        # col_offset counts UTF-8 bytes; report characters.
        chars = len(line_text.encode("utf-8")[:byte_offset].decode("utf-8", errors="ignore"))
        return self.indent + start + chars + 1

    def convert(self, node: ast.expr) -> Node:
        match node:
            case ast.Constant(value=value):
                return self.constant(value, node)
            case ast.Name(id=name):
                return Name(self.checked_name(name, node))
            case ast.BinOp(left=left, op=op, right=right):
                return BinOp(self.operator(_BINARY, op, node), self.convert(left), self.convert(right))
            case ast.UnaryOp(op=op, operand=operand):
                return UnaryOp(self.operator(_UNARY, op, node), self.convert(operand))
            case ast.BoolOp(op=op, values=values):
                return BoolOp("and" if isinstance(op, ast.And) else "or", tuple(self.convert(v) for v in values))
            case ast.Compare(left=left, ops=ops, comparators=comparators):
                names = tuple(self.operator(_COMPARE, op, node) for op in ops)
                return Compare(self.convert(left), names, tuple(self.convert(c) for c in comparators))
            case ast.IfExp(test=test, body=body, orelse=orelse):
                return IfExp(self.convert(test), self.convert(body), self.convert(orelse))
            case ast.Subscript(value=value, slice=index):
                return Subscript(self.convert(value), self.subscript_index(index))
            case ast.List(elts=elements):
                return ListDisplay(tuple(self.convert(e) for e in elements))
            case ast.Tuple(elts=elements):
                return TupleDisplay(tuple(self.convert(e) for e in elements))
            case ast.ListComp(elt=element, generators=generators):
                return Comprehension(False, self.convert(element), self.clauses(generators))
            case ast.GeneratorExp(elt=element, generators=generators):
                return Comprehension(True, self.convert(element), self.clauses(generators))
            case ast.Call():
                return self.call(node)
        what = _REFUSED.get(type(node), type(node).__name__)
        raise self.error(f"{what} is not allowed in a formula", node)

    def constant(self, value: object, node: ast.AST) -> Const:
        if value is None or isinstance(value, bool | int | float | str):
            return Const(value)
        raise self.error(f"constant of type {type(value).__name__} is not allowed in a formula", node)

    def checked_name(self, name: str, node: ast.AST) -> str:
        if name.startswith("_"):
            raise self.error(f"name {name!r} is not allowed: names starting with '_' are reserved", node)
        return name

    def operator(self, table: Mapping[type[ast.AST], str], op: ast.AST, node: ast.AST) -> str:
        symbol = table.get(type(op))
        if symbol is None:
            hint = " (use == or !=)" if isinstance(op, ast.Is | ast.IsNot) else ""
            raise self.error(f"operator {type(op).__name__} is not allowed in a formula{hint}", node)
        return symbol

    def subscript_index(self, index: ast.expr) -> Node | Slice:
        if isinstance(index, ast.Slice):
            parts = (index.lower, index.upper, index.step)
            lower, upper, step = (None if part is None else self.convert(part) for part in parts)
            return Slice(lower, upper, step)
        return self.convert(index)

    def clauses(self, generators: list[ast.comprehension]) -> tuple[ForClause, ...]:
        result = []
        for generator in generators:
            if generator.is_async:
                raise self.error("async comprehension is not allowed in a formula", generator.target)
            if not isinstance(generator.target, ast.Name):
                raise self.error("a comprehension variable must be a single name", generator.target)
            target = self.checked_name(generator.target.id, generator.target)
            conditions = tuple(self.convert(condition) for condition in generator.ifs)
            result.append(ForClause(target, self.convert(generator.iter), conditions))
        return tuple(result)

    def call(self, node: ast.Call) -> Call:
        if not isinstance(node.func, ast.Name):
            raise self.error("only the formula functions can be called, not an expression", node)
        function = node.func.id
        if function not in FUNCTION_NAMES:
            known = " ".join(sorted(FUNCTION_NAMES))
            raise self.error(f"unknown function {function!r} (allowed: {known})", node)
        if node.keywords:
            raise self.error(f"keyword arguments are not allowed in a formula ({function})", node)
        if any(isinstance(arg, ast.Starred) for arg in node.args):
            raise self.error(f"starred arguments are not allowed in a formula ({function})", node)
        if function == "value" and (len(node.args) != 1 or not isinstance(node.args[0], ast.Name)):
            raise self.error("value(...) takes exactly one input name, as in value(X)", node)
        if function in ("type_of", "dtype") and (len(node.args) != 1 or not isinstance(node.args[0], ast.Name)):
            raise self.error(f"{function}(...) takes exactly one input name, as in {function}(X)", node)
        if function == "unknown" and (len(node.args) not in (1, 2) or not isinstance(node.args[0], ast.Constant)
                                      or not isinstance(node.args[0].value, str) or not node.args[0].value
                                      or (len(node.args) == 2 and isinstance(node.args[1], ast.Constant)
                                          and type(node.args[1].value) is not int)):
            raise self.error("unknown(...) takes a non-empty string, and an index for one of several dims: "
                             "unknown('count'), unknown('sliced', i)", node)
        return Call(function, tuple(self.convert(arg) for arg in node.args))
