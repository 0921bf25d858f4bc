"""The domains of an op version in words, for its doc page: what valid inputs, attributes and dims look like (the
`domain` keys of docs/format.md, which the conformance strategies draw from)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from opset.formula import Formula
from opset.model import FILLS, OpVersion, ValueDomain

Code = Callable[[object], str]  # the page's inline-code filter


# how each fill but the default (`small`, which says nothing) reads on an op page
FILL_TEXT = {
    "full": "over the whole range of an integer type",
    "ends": "small values and both ends of an integer type",
    "specials": "NaN, ±inf and -0 among the values (integers: the type's extremes)",
    "log": "log-uniform over a positive range (values across orders of magnitude)",
}


@dataclass(frozen=True, slots=True)
class DomainRow:
    kind: str  # input, attribute, dim
    name: str
    text: str


def domain_rows(version: OpVersion, code: Code) -> list[DomainRow]:
    """One row per input, attribute and dim with a domain, in the version's order."""
    rows = [DomainRow("input", p.name, describe(p.domain, code)) for p in version.inputs if p.domain is not None]
    rows += [DomainRow("attribute", a.name, describe(a.domain, code)) for a in version.attributes.values()
             if a.domain is not None]
    rows += [DomainRow("dim", name, describe(d, code, noun="sizes")) for name, d in version.dims.items()]
    return rows


def describe(domain: ValueDomain, code: Code, *, noun: str = "values") -> str:
    """The domain as one line of text; formulas as code (`noun`: what a range bounds, values or a dim's sizes)."""
    parts = _values(domain, code, noun) + _shape(domain, code) + _presence(domain, code)
    for kind, sub in (("integer types", domain.integers), ("float types", domain.floats),
                      ("strings", domain.strings), ("map keys (distinct)", domain.keys), ("map values", domain.values)):
        if sub is not None:
            parts.append(f"{kind}: {describe(sub, code, noun=noun)}")
    return "; ".join(parts) or "—"


def _bound(f: Formula | None, code: Code, open_end: str) -> str:
    return open_end if f is None else code(f.text)


def _values(d: ValueDomain, code: Code, noun: str) -> list[str]:
    parts: list[str] = []
    signs = "negative ones counted from the end" if d.negative else "none negative"
    if d.value is not None:
        parts.append(f"exactly {code(d.value.text)}")
    if d.one_of:
        parts.append("one of " + ", ".join(code(f.text) for f in d.one_of))
    if d.range is not None:
        parts.append(f"{noun} in [{_bound(d.range[0], code, '…')}, {_bound(d.range[1], code, '…')}]")
    if d.exclude:
        parts.append("never " + ", ".join(code(x) for x in d.exclude))
    if d.index is not None:
        parts.append(f"indices into a dim of size {code(d.index.text)} ({signs})")
    if d.among is not None and d.axes is None:
        parts.append(f"each value one of {code(d.among.text)}")
    if d.hits is not None:
        parts.append(f"about half the values from {code(d.hits.text)}")
    if d.axes is not None:
        count = f", {code(d.count[0].text)} to {code(d.count[1].text)} of them" if d.count is not None else ""
        parts.append(f"distinct axes of a rank-{code(d.axes.text)} tensor ({signs}{count})")
    if d.permutation is not None:
        parts.append(f"a permutation of range({code(d.permutation.text)})")
    if d.sum is not None:
        parts.append(f"non-negative, adding up to {code(d.sum.text)}")
    if d.multiple_of is not None:
        parts.append(f"a multiple of {code(d.multiple_of.text)}")
    if d.repeats is not None:
        parts.append(f"a few slices along axis {code(d.repeats.text)}, repeated")
    if d.dtype_of is not None:
        among = "any it allows" if d.dtype_where is None else f"those `t` it allows where {code(d.dtype_where.text)}"
        parts.append(f"names the element type of {code(d.dtype_of)} ({among})")
    parts += [FILL_TEXT[d.fill]] if d.fill in FILL_TEXT else []
    if d.fill_of is not None:
        parts.append(f"spread as {code(d.fill_of.text)} names ({', '.join(FILLS)})")
    if d.converts_to is not None:
        parts.append(f"values every conversion to the element type {code(d.converts_to.text)} defines")
    if d.unique is not None:
        where = "" if d.unique.text == "True" else f" where {code(d.unique.text)}"
        parts.append(f"no value (index tuple) twice{where}")
    if d.unique_along is not None:
        parts.append(f"no index twice along axis {code(d.unique_along.text)}")
    parts += [text for flag, text in ((d.sorted, "ascending along the last axis"),
                                      (d.probabilities, "rows of probabilities adding up to 1"),
                                      (d.any_type, "of any type its type variable allows")) if flag]
    if d.types:
        parts.append("of type " + " or ".join(code(t) for t in d.types))
    return parts


def _shape(d: ValueDomain, code: Code) -> list[str]:
    parts: list[str] = []
    if d.rank is not None:
        low, high = d.rank
        parts.append(f"rank {code(low.text)}" if low.text == high.text else
                     f"rank {code(low.text)} to {code(high.text)}")
    if d.shapes:
        parts.append("shape one of " + ", ".join(code(f.text) for f in d.shapes))
    if d.broadcast == "numpy":
        parts.append("shape broadcasts with the other inputs (numpy's rule)")
    elif d.broadcast == "legacy":
        parts.append("shape as opset 1-6's `broadcast`/`axis` rule allows")
    if d.empty is not None:
        where = "" if d.empty.text == "True" else f" where {code(d.empty.text)}"
        parts.append(f"a dim of size 0 now and then{where}")
    if d.count is not None and d.axes is None:
        parts.append(f"{code(d.count[0].text)} to {code(d.count[1].text)} of them")
    if d.alike is not None:
        parts.append(f"elements of one shape but for axis {code(d.alike.text)} (None: one shape)")
    return parts


def _presence(d: ValueDomain, code: Code) -> list[str]:
    if d.present is not None:
        return [f"given exactly where {code(d.present.text)}"]
    if d.when is not None:
        return [f"given only where {code(d.when.text)}"]
    return []
