"""The ``Formula`` object: parsed text with the facts a registry checker needs, and evaluation."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from opset.formula.errors import FormulaError
from opset.formula.evaluator import evaluate_tree
from opset.formula.host_values import InputValues
from opset.formula.nodes import Call, Comprehension, ForClause, Name, Node, Slice, child_nodes
from opset.formula.parser import parse_tree
from opset.formula.printer import to_text


class Formula:
    """A parsed formula. Equality and hashing are structural: formatting and redundant parentheses do not count."""

    __slots__ = ("_text", "calls", "names", "text", "tree", "uses_value")

    def __init__(self, text: str, tree: Node) -> None:
        self.text = text
        self.tree = tree
        self.names: frozenset[str] = frozenset(_free_names(tree, frozenset()))
        self.calls: frozenset[str] = frozenset(_called_functions(tree))
        self.uses_value: bool = "value" in self.calls
        self._text = to_text(tree)

    @classmethod
    def from_tree(cls, tree: Node) -> Formula:
        """A formula of an already parsed tree (a part of another formula); its text is the normalised form."""
        return cls(to_text(tree), tree)

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Formula({self._text!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Formula) and self.tree == other.tree

    def __hash__(self) -> int:
        return hash(self.tree)

    def evaluate(self, env: Mapping[str, Any], values: InputValues | None = None) -> Any:
        """The value over ``env`` (names -> ints, floats, strings, None, lists, ``Sym``).

        ``values`` maps input names to their known values, for ``value(X)``. Raises FormulaError
        or Undecided, nothing else.
        """
        try:
            return evaluate_tree(self.tree, env, values)
        except FormulaError as error:
            if error.text is not None:
                raise
            raise error.with_text(self.text) from error


def _free_names(node: Node | Slice | ForClause, bound: frozenset[str]) -> set[str]:
    if isinstance(node, Name):
        return set() if node.id in bound else {node.id}
    if isinstance(node, Comprehension):
        names: set[str] = set()
        inner = bound
        for clause in node.clauses:
            names |= _free_names(clause.iterable, inner)
            inner = inner | {clause.target}
            for condition in clause.conditions:
                names |= _free_names(condition, inner)
        return names | _free_names(node.element, inner)
    result: set[str] = set()
    for child in child_nodes(node):
        result |= _free_names(child, bound)
    return result


def _called_functions(node: Node | Slice | ForClause) -> set[str]:
    result = {node.function} if isinstance(node, Call) else set()
    for child in child_nodes(node):
        result |= _called_functions(child)
    return result


def parse(text: str) -> Formula:
    """Parse formula text; raises FormulaError naming the refused construct and, where possible, its column.

    Results are cached by text: the same formula is parsed many times.
    """
    if not isinstance(text, str):
        raise FormulaError(f"a formula must be a string, not {type(text).__name__}")
    return _parse_cached(text)


@functools.lru_cache(maxsize=8192)
def _parse_cached(text: str) -> Formula:
    return Formula(text, parse_tree(text))


def evaluate(
    formula: str | Formula, env: Mapping[str, Any], values: InputValues | None = None
) -> Any:
    """Parse (cached) and evaluate in one call."""
    parsed = formula if isinstance(formula, Formula) else parse(formula)
    return parsed.evaluate(env, values)
