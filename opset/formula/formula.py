"""The ``Formula`` object: parsed text with the facts a registry checker needs, and evaluation."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from opset.formula.errors import FormulaError

if TYPE_CHECKING:  # the tree's modules load on the first parse: loading the registry builds Formula objects unparsed
    from opset.formula.host_values import InputValues
    from opset.formula.nodes import ForClause, Node, Slice


@dataclass(frozen=True, slots=True)
class _Facts:
    """What parsing a formula's text gives; computed once per distinct text."""

    tree: Node
    names: frozenset[str]
    calls: frozenset[str]
    normal: str  # the normalised text


def _facts_of(tree: Node) -> _Facts:
    from opset.formula.printer import to_text

    return _Facts(tree, frozenset(_free_names(tree, frozenset())), frozenset(_called_functions(tree)), to_text(tree))


@functools.lru_cache(maxsize=16384)
def _facts_of_text(text: str) -> _Facts:
    from opset.formula.parser import parse_tree  # the parser (ast) loads on the first parse only

    return _facts_of(parse_tree(text))


class Formula:
    """A parsed formula. Equality and hashing are structural: formatting and redundant parentheses do not count.

    `parse(text)` parses at once (raising FormulaError); `Formula.checked(text)` is for text known to
    parse (the registry checked it when its cache was written) and parses on first use. Either way a
    Formula object parses its text at most once.
    """

    __slots__ = ("_code", "_facts", "_reads", "text")

    def __init__(self, text: str, tree: Node | None = None) -> None:
        self.text = text
        self._facts: _Facts | None = _facts_of(tree) if tree is not None else None
        self._code: Callable[[Mapping[str, Any], InputValues | None], Any] | None = None  # compiled on first use
        # (names, calls) as a generated module states them, before any parse (`use_generated`)
        self._reads: tuple[frozenset[str], frozenset[str]] | None = None

    @classmethod
    def checked(cls, text: str) -> Formula:
        """A formula of already-checked text, parsed when first used."""
        return cls(text)

    @classmethod
    def from_tree(cls, tree: Node) -> Formula:
        """A formula of an already parsed tree (a part of another formula); its text is the normalised form."""
        from opset.formula.printer import to_text

        return cls(to_text(tree), tree)

    def _parsed(self) -> _Facts:
        facts = self._facts
        if facts is None:
            facts = self._facts = _facts_of_text(self.text)
        return facts

    def use_generated(self, code: Callable[[Mapping[str, Any], InputValues | None], Any] | None,
                      names: frozenset[str], calls: frozenset[str]) -> None:
        """Evaluate through `code` from now on (None: no function was written for it), and know the free names and
        called functions without parsing: what `gen formulas` wrote from this formula's own text
        (`opset.generated_formulas` hands them over only where the op version's fingerprint matches)."""
        if code is not None:
            self._code = code
        if self._facts is None:
            self._reads = (names, calls)

    @property
    def tree(self) -> Node:
        return self._parsed().tree

    @property
    def names(self) -> frozenset[str]:
        """Free names (attributes, inputs, dims, lets) the formula reads."""
        reads = self._reads
        return reads[0] if reads is not None else self._parsed().names

    @property
    def calls(self) -> frozenset[str]:
        reads = self._reads
        return reads[1] if reads is not None else self._parsed().calls

    @property
    def uses_value(self) -> bool:
        """Does it read input values (`value(X)`)?"""
        return "value" in self.calls

    def __str__(self) -> str:
        return self._parsed().normal

    def __repr__(self) -> str:
        return f"Formula({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Formula) and self.tree == other.tree

    def __hash__(self) -> int:
        return hash(self.tree)

    def evaluate(self, env: Mapping[str, Any], values: InputValues | None = None) -> Any:
        """The value over ``env`` (names -> ints, floats, strings, None, lists, ``Sym``).

        ``values`` maps input names to their known values, for ``value(X)``. Raises FormulaError
        or Undecided, nothing else.
        """
        code = self._code
        if code is None:
            code = self._code = _compile_tree()(self.tree)
        try:
            if _WALKED:
                return _evaluate_tree()(self.tree, env, values)
            return code(env, values)
        except FormulaError as error:
            if error.text is not None:
                raise
            raise error.with_text(self.text) from error


@functools.cache
def _evaluate_tree() -> Callable[[Node, Mapping[str, Any], InputValues | None], Any]:
    """The evaluator, imported on the first evaluation: loading the registry does not need it."""
    from opset.formula.evaluator import evaluate_tree

    return evaluate_tree


@functools.cache
def _compile_tree() -> Callable[[Node], Callable[[Mapping[str, Any], InputValues | None], Any]]:
    """The compiler, imported on the first evaluation (as the evaluator)."""
    from opset.formula.compiled import compiled_evaluation

    return compiled_evaluation


_WALKED: list[bool] = []  # non-empty while `walked_evaluation()` is in force


@contextmanager
def walked_evaluation() -> Iterator[None]:
    """Evaluate by walking the tree (the reference evaluator) instead of the compiled closures, within the block:
    the two must agree on every value and every error, and tests compare them."""
    _WALKED.append(True)
    try:
        yield
    finally:
        _WALKED.pop()


def _free_names(node: Node | Slice | ForClause, bound: frozenset[str]) -> set[str]:
    from opset.formula.nodes import Comprehension, Name, child_nodes

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
    from opset.formula.nodes import Call, child_nodes

    result = {node.function} if isinstance(node, Call) else set()
    for child in child_nodes(node):
        result |= _called_functions(child)
    return result


def parse(text: str) -> Formula:
    """Parse formula text now; raises FormulaError naming the refused construct and, where possible, its column.

    Parsing is cached by text: the same formula text is parsed once per process.
    """
    if not isinstance(text, str):
        raise FormulaError(f"a formula must be a string, not {type(text).__name__}")
    return _parse_cached(text)


@functools.lru_cache(maxsize=8192)
def _parse_cached(text: str) -> Formula:
    formula = Formula(text)
    formula._parsed()
    return formula


def evaluate(
    formula: str | Formula, env: Mapping[str, Any], values: InputValues | None = None
) -> Any:
    """Parse (cached) and evaluate in one call."""
    parsed = formula if isinstance(formula, Formula) else parse(formula)
    return parsed.evaluate(env, values)
