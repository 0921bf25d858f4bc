"""Building the `domain` of an input or attribute, and a version's `dims`, into `ValueDomain` records.

Part of the second loading pass (`opset.build`): every formula is parsed here, once; a literal (a number, `true`)
becomes the formula of its value, so consumers only ever walk formulas. A formula that does not parse is reported
located and left out. What the meta-schema cannot check (names in scope, a type variable `dtype_of` names) is
`opset.domain_checks`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from opset.formula import Formula
from opset.frozen import FrozenMap, freeze
from opset.model import Location, ValueDomain

ParseFormula = Callable[[Any, str, Location, str], Formula | None]  # (text, what, location, op) -> Formula


def formula_text(value: Any) -> str:
    """A YAML scalar as formula text: strings as written, `true`/`false`/`null` and numbers as Python spells them."""
    return value if isinstance(value, str) else repr(value)


def value_domain(raw: dict[str, Any] | None, what: str, location: Location, op: str,
                 formula_of: ParseFormula) -> ValueDomain | None:
    """The domain of `what` (`input 'indices'`, `attribute 'axis'`, `dim 'S'`) from its meta-schema-valid mapping."""
    if raw is None:
        return None

    def one(key: str) -> Formula | None:
        return formula_of(formula_text(raw[key]), f"{what}: domain {key}", location, op) if key in raw else None

    def pair(key: str) -> tuple[Formula | None, Formula | None] | None:
        if key not in raw:
            return None
        given = raw[key] if isinstance(raw[key], list) else [raw[key], raw[key]]  # an exact rank: both bounds
        low, high = (None if v is None else formula_of(formula_text(v), f"{what}: domain {key}", location, op)
                     for v in given)
        return low, high

    def many(key: str) -> tuple[Formula, ...]:
        found = (formula_of(formula_text(v), f"{what}: domain {key}", location, op) for v in raw.get(key) or ())
        return tuple(f for f in found if f is not None)

    count = pair("count")
    rank = pair("rank")
    return ValueDomain(
        range=pair("range"), exclude=freeze(raw.get("exclude") or ()), step=one("step"), fill=raw.get("fill"),
        fill_of=one("fill_of"),
        index=one("index"), negative=raw.get("negative", True), axes=one("axes"), among=one("among"),
        hits=one("hits"),
        count=_both(count), permutation=one("permutation"), sum=one("sum"), one_of=many("one_of"),
        each=raw.get("each", False), value=one("value"), multiple_of=one("multiple_of"),
        sorted=raw.get("sorted", False), unique=one("unique"), unique_along=one("unique_along"),
        probabilities=raw.get("probabilities", False), converts_to=one("converts_to"),
        repeats=one("repeats"), dtype_of=raw.get("dtype_of"),
        dtype_where=one("dtype_where"),
        any_type=raw.get("any_type", False), types=tuple(raw.get("types") or ()),
        rank=_both(rank), shapes=many("shapes"), broadcast=raw.get("broadcast"),
        empty=one("empty"), alike=one("alike"), when=one("when"), present=one("present"),
        integers=value_domain(raw.get("integers"), f"{what} (integers)", location, op, formula_of),
        floats=value_domain(raw.get("floats"), f"{what} (floats)", location, op, formula_of),
        strings=value_domain(raw.get("strings"), f"{what} (strings)", location, op, formula_of),
        keys=value_domain(raw.get("keys"), f"{what} (keys)", location, op, formula_of),
        values=value_domain(raw.get("values"), f"{what} (values)", location, op, formula_of), location=location)


def _both(pair: tuple[Formula | None, Formula | None] | None) -> tuple[Formula, Formula] | None:
    """A `count` or `rank` pair: both bounds are required by the meta-schema; a bound that did not parse drops it."""
    if pair is None or pair[0] is None or pair[1] is None:
        return None
    return pair[0], pair[1]


def dims_domains(raw: dict[str, Any], location_of: Callable[[str], Location], op: str,
                 formula_of: ParseFormula) -> FrozenMap[str, ValueDomain]:
    """A version's `dims`: name -> domain, each located at its own entry."""
    found = {}
    for name, spec in raw.items():
        built = value_domain(spec, f"dim '{name}'", location_of(name), op, formula_of)
        if built is not None:
            found[name] = built
    return FrozenMap(found)
