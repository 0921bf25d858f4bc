"""Symbolic dims: polynomials with rational coefficients over named dims and opaque atoms.

A value is kept normalised: a polynomial whose only term is a constant becomes a plain ``int``
(or ``Fraction``), so ``N - N`` is ``0``. Things a polynomial cannot express (``floor(N/2)``,
``max(N, 3)``) become opaque atoms, named by their normalised text.
"""

from __future__ import annotations

from fractions import Fraction

from opset.formula.errors import FormulaError, Undecided

Atom = tuple[int, str]  # (kind, text): kind 0 is a named dim, kind 1 an opaque expression
Monomial = tuple[tuple[Atom, int], ...]  # sorted atoms with their powers; () is the constant term
ExactNumber = int | Fraction

MAX_TERMS = 256
MAX_MAGNITUDE = 2**256
_NAMED = 0
_OPAQUE = 1


class Sym:
    """A symbolic dim value. ``Sym("N")`` is the unknown dim ``N``; arithmetic keeps it symbolic."""

    __slots__ = ("_hash", "_terms")
    _terms: dict[Monomial, Fraction]  # set once, when the value is made: a Sym never changes
    _hash: int  # set by the first `__hash__` (validation hashes a model's dims in every node signature)

    def __init__(self, name: str) -> None:
        if not isinstance(name, str) or not name:
            raise FormulaError(f"a symbolic dim needs a non-empty name, not {name!r}")
        self._terms = {(((_NAMED, name), 1),): Fraction(1)}

    @property
    def is_constant(self) -> bool:
        return all(monomial == () for monomial in self._terms)

    @property
    def symbols(self) -> frozenset[str]:
        """The named dims this value depends on (not looking inside opaque atoms)."""
        return frozenset(atom[1] for monomial in self._terms for atom, _ in monomial if atom[0] == _NAMED)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sym) and self._terms == other._terms

    def __hash__(self) -> int:
        try:
            return self._hash
        except AttributeError:
            self._hash = found = hash(frozenset(self._terms.items()))
            return found

    def __getstate__(self) -> object:
        return None, {"_terms": self._terms}  # never the hash: a str's hash differs from process to process

    def __bool__(self) -> bool:
        raise Undecided(f"the truth of symbolic value {self} is unknown")

    def __str__(self) -> str:
        ordered = sorted(self._terms.items(), key=lambda item: _monomial_order(item[0]))
        text = ""
        for monomial, coefficient in ordered:
            term = _term_text(monomial, coefficient)
            if not text:
                text = term
            elif term.startswith("-"):
                text += f" - {term[1:]}"
            else:
                text += f" + {term}"
        return text

    def __repr__(self) -> str:
        return f"Sym({str(self)!r})"

    def __add__(self, other: object) -> Sym | ExactNumber:
        return add(self, other) if isinstance(other, Sym | int | Fraction) else NotImplemented

    __radd__ = __add__

    def __sub__(self, other: object) -> Sym | ExactNumber:
        return add(self, negate(other)) if isinstance(other, Sym | int | Fraction) else NotImplemented

    def __rsub__(self, other: object) -> Sym | ExactNumber:
        return add(negate(self), other) if isinstance(other, Sym | int | Fraction) else NotImplemented

    def __mul__(self, other: object) -> Sym | ExactNumber:
        return multiply(self, other) if isinstance(other, Sym | int | Fraction) else NotImplemented

    __rmul__ = __mul__

    def __neg__(self) -> Sym | ExactNumber:
        return negate(self)


SymbolicNumber = Sym | int | Fraction


def _monomial_order(monomial: Monomial) -> tuple[int, str]:
    degree = sum(power for _, power in monomial)
    return (-degree if monomial else 1, _monomial_text(monomial))


def _monomial_text(monomial: Monomial) -> str:
    return "*".join(atom[1] if power == 1 else f"{atom[1]}**{power}" for atom, power in monomial)


def _term_text(monomial: Monomial, coefficient: Fraction) -> str:
    if not monomial:
        return str(coefficient.numerator) if coefficient.denominator == 1 else str(coefficient)
    text = _monomial_text(monomial)
    numerator = coefficient.numerator
    if numerator == -1:
        text = f"-{text}"
    elif numerator != 1:
        text = f"{numerator}*{text}"
    return text if coefficient.denominator == 1 else f"{text}/{coefficient.denominator}"


def terms_of(value: SymbolicNumber) -> dict[Monomial, Fraction]:
    if isinstance(value, Sym):
        return dict(value._terms)
    return {(): Fraction(value)} if value != 0 else {}


def from_terms(terms: dict[Monomial, Fraction]) -> SymbolicNumber:
    """The normalised value of a polynomial: a plain number when only a constant is left."""
    kept = {monomial: coefficient for monomial, coefficient in terms.items() if coefficient != 0}
    if len(kept) > MAX_TERMS:
        raise FormulaError(f"symbolic expression has more than {MAX_TERMS} terms")
    for coefficient in kept.values():
        if abs(coefficient.numerator) > MAX_MAGNITUDE or coefficient.denominator > MAX_MAGNITUDE:
            raise FormulaError("symbolic coefficient exceeds 2**256 in magnitude")
    if not kept:
        return 0
    if list(kept) == [()]:
        constant = kept[()]
        return constant.numerator if constant.denominator == 1 else constant
    value = Sym.__new__(Sym)
    value._terms = kept
    return value


def holds_unknown(value: object) -> bool:
    """Is `value` a dim holding one no one knows, a formula's `unknown('tag')` (an opaque atom `?tag`, alone or
    in an expression)?"""
    return type(value) is Sym and any(kind == _OPAQUE and text.startswith("?")
                                      for monomial in value._terms for (kind, text), _ in monomial)


def opaque(text: str) -> Sym:
    """An atom the polynomial arithmetic does not look into, such as ``floor(N/2)``."""
    value = Sym.__new__(Sym)
    value._terms = {(((_OPAQUE, text), 1),): Fraction(1)}
    return value


def add(left: SymbolicNumber, right: SymbolicNumber) -> SymbolicNumber:
    terms = terms_of(left)
    for monomial, coefficient in terms_of(right).items():
        terms[monomial] = terms.get(monomial, Fraction(0)) + coefficient
    return from_terms(terms)


def negate(value: SymbolicNumber) -> SymbolicNumber:
    return from_terms({monomial: -coefficient for monomial, coefficient in terms_of(value).items()})


def multiply(left: SymbolicNumber, right: SymbolicNumber) -> SymbolicNumber:
    left_terms, right_terms = terms_of(left), terms_of(right)
    if len(left_terms) * len(right_terms) > MAX_TERMS * MAX_TERMS:
        raise FormulaError(f"symbolic expression has more than {MAX_TERMS} terms")
    terms: dict[Monomial, Fraction] = {}
    for left_monomial, left_coefficient in left_terms.items():
        for right_monomial, right_coefficient in right_terms.items():
            monomial = _monomial_product(left_monomial, right_monomial)
            terms[monomial] = terms.get(monomial, Fraction(0)) + left_coefficient * right_coefficient
    return from_terms(terms)


def _monomial_product(left: Monomial, right: Monomial) -> Monomial:
    powers = dict(left)
    for atom, power in right:
        powers[atom] = powers.get(atom, 0) + power
    return tuple(sorted((atom, power) for atom, power in powers.items() if power != 0))


def divide(left: SymbolicNumber, right: SymbolicNumber) -> SymbolicNumber:
    """Exact division; a symbolic divisor that does not divide every term gives an opaque atom."""
    if not isinstance(right, Sym):
        if right == 0:
            raise FormulaError("division by zero")
        return multiply(left, Fraction(1) / Fraction(right))
    if left == right:
        return 1
    divisor = terms_of(right)
    if len(divisor) == 1:
        ((divisor_monomial, divisor_coefficient),) = divisor.items()
        quotient: dict[Monomial, Fraction] = {}
        for monomial, coefficient in terms_of(left).items():
            reduced = _monomial_quotient(monomial, divisor_monomial)
            if reduced is None:
                break
            quotient[reduced] = coefficient / divisor_coefficient
        else:
            return from_terms(quotient)
    return opaque(f"div({left}, {right})")


def _monomial_quotient(dividend: Monomial, divisor: Monomial) -> Monomial | None:
    powers = dict(dividend)
    for atom, power in divisor:
        if powers.get(atom, 0) < power:
            return None
        powers[atom] -= power
    return tuple(sorted((atom, power) for atom, power in powers.items() if power != 0))


def round_to_integer(value: Sym, function: str) -> SymbolicNumber:
    """``floor`` or ``ceil`` of a symbolic value, keeping the integer-coefficient part outside the atom."""
    integral: dict[Monomial, Fraction] = {}
    fractional: dict[Monomial, Fraction] = {}
    for monomial, coefficient in terms_of(value).items():
        if monomial == ():
            whole = coefficient.__floor__() if function == "floor" else coefficient.__ceil__()
            integral[()] = Fraction(whole)
            fractional[()] = coefficient - whole
        elif coefficient.denominator == 1:
            integral[monomial] = coefficient
        else:
            fractional[monomial] = coefficient
    rest = from_terms(fractional)
    if not isinstance(rest, Sym):
        return from_terms(integral)
    return add(from_terms(integral), opaque(f"{function}({rest})"))


def truncate(value: Sym) -> SymbolicNumber:
    if all(coefficient.denominator == 1 for coefficient in value._terms.values()):
        return value
    return opaque(f"int({value})")


def absolute(value: Sym) -> Sym:
    ordered = sorted(value._terms.items(), key=lambda item: _monomial_order(item[0]))
    positive = negate(value) if ordered[0][1] < 0 else value
    return opaque(f"abs({positive})")


def extreme(function: str, values: list[SymbolicNumber]) -> SymbolicNumber:
    """``min`` or ``max`` of values where some comparisons cannot be decided: an opaque atom."""
    texts = sorted({str(value) for value in values})
    return opaque(f"{function}({', '.join(texts)})")


def sign_of_difference(left: SymbolicNumber, right: SymbolicNumber) -> int:
    """-1, 0 or 1 as ``left - right`` is negative, zero or positive; Undecided when it depends on symbols."""
    difference = add(left, negate(right))
    if isinstance(difference, Sym):
        raise Undecided(f"cannot decide how {left} compares with {right}")
    return (difference > 0) - (difference < 0)
