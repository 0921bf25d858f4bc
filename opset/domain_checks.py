"""What the meta-schema cannot check about domains (docs/format.md, "Domains"), over built records.

A domain's formulas read what the version's other formulas read, plus the names its `dims` add (helper draws) and
`i`, an element's position; each key applies where it means something (a `dtype_of` on an attribute naming a type
variable, `broadcast` and `shapes` on inputs, `multiple_of` on dims ...); and no domain reads, through other domains,
the thing it draws (the builder draws a name after the names its domain reads).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import fields

from opset.cells import allowed_elements
from opset.formula import Formula
from opset.formula.nodes import TYPE_FORMS, Call, ForClause, Name, Node, Slice, child_nodes
from opset.model import Location, OpVersion, Param, ValueDomain

Report = Callable[[Location | None, str, str], None]  # (location, op, message)
CheckFormula = Callable[[Formula, str, Location | None, frozenset[str]], None]  # (formula, what, where, names in scope)

ELEMENT = "i"  # the position of an element, where a rule applies per element
CANDIDATE = "t"  # `dtype_where`: the candidate element type
VALUE = "k"  # a variadic input's domain: the position of the value drawn
_INPUT_ONLY = ("fill_of", "step", "broadcast", "any_type", "sorted", "probabilities", "repeats", "unique_along",
               "alike", "hits", "keys", "values", "converts_to", "types")
_NOT_ON_INPUTS = ("dtype_of", "dtype_where", "multiple_of")
_NOT_ON_DIMS = ("fill", "fill_of", "dtype_where", "shapes", "broadcast", "any_type", "dtype_of", "when", "present",
                "index", "sum", "sorted", "unique", "unique_along", "probabilities", "exclude", "repeats", "step",
                "alike", "hits", "keys", "values", "converts_to", "types")


def domain_scope(v: OpVersion, names: Iterable[str]) -> frozenset[str]:
    """The names a domain formula may read: the version's, its helper dims', `i`, `k` and the outputs' (their types
    only: `type_of(Y)`, `dtype(Y)`)."""
    return frozenset(names) | frozenset(v.dims) | {ELEMENT, VALUE} | {p.name for p in v.outputs}


def check_domains(v: OpVersion, report: Report, check_formula: CheckFormula, names: frozenset[str]) -> None:
    """Every domain of the version: formulas in scope, keys where they apply, no domain reading what it draws."""
    scope = domain_scope(v, names)
    op = v.signature
    for param in v.inputs:
        if param.domain is not None:
            _check_one(v, param.domain, f"input '{param.name}'", "input", report, check_formula, scope)
            if param.domain.any_type and v.type_variable(param.type) is None:
                report(param.domain.location, op, f"input '{param.name}': domain any_type needs a type variable, "
                                                  f"not the fixed type {param.type}")
            if param.domain.types:
                _check_types(v, param, report)
            if (param.domain.broadcast is not None or param.domain.shapes) and not _free_shape(param.shape):
                report(param.domain.location, op, f"input '{param.name}': domain broadcast and shapes draw the "
                                                  "shape; the input's signature fixes dims of it (only `*S` or none "
                                                  "leaves it free)")
            if (param.domain.keys is not None or param.domain.values is not None) \
                    and not _every_type(v, param.type, "map("):
                report(param.domain.location, op, f"input '{param.name}': domain keys and values need a map input, "
                                                  f"not {param.type}")
            if param.domain.alike is not None and not _every_type(v, param.type, "seq(tensor("):
                report(param.domain.location, op, f"input '{param.name}': domain alike needs a sequence input "
                                                  f"(of tensors), not {param.type}")
            if (param.domain.when is not None or param.domain.present is not None) and not param.optional:
                report(param.domain.location, op, f"input '{param.name}': domain when/present needs an optional "
                                                  "input")
    for param in v.outputs:
        if param.domain is None:
            continue
        for key, formula in param.domain.formulas():
            check_formula(formula, f"output '{param.name}': domain {key}", param.domain.location, scope)
        extra = [f.name for f in fields(ValueDomain) if f.name not in ("when", "present", "location", "negative")
                 and getattr(param.domain, f.name) not in (None, False, (), "")]
        if extra or not param.optional:
            report(param.domain.location, op, f"output '{param.name}': a domain on an output says only where an "
                                              "optional one is asked for (when, present)")
    for attr in v.attributes.values():
        if attr.domain is None:
            continue
        _check_one(v, attr.domain, f"attribute '{attr.name}'", "attribute", report, check_formula, scope)
        if attr.domain.dtype_of is not None and v.type_variable(attr.domain.dtype_of) is None:
            report(attr.domain.location, op, f"attribute '{attr.name}': domain dtype_of names "
                                             f"'{attr.domain.dtype_of}', not a type variable")
        if attr.domain.shapes and attr.type != "tensor":
            report(attr.domain.location, op, f"attribute '{attr.name}': domain shapes applies to inputs and tensor "
                                             "attributes")
        if attr.domain.fill is not None and attr.type not in ("float", "tensor"):
            report(attr.domain.location, op, f"attribute '{attr.name}': domain fill applies to float and tensor "
                                             "attributes")
        if attr.domain.present is not None and attr.required:
            report(attr.domain.location, op, f"attribute '{attr.name}': domain present on a required attribute")
    taken = {**{name: "a let" for name in v.lets}, **{a: "an attribute" for a in v.attributes},
             **{p.name: "an input" for p in v.inputs}}
    for name, domain in v.dims.items():
        _check_one(v, domain, f"dim '{name}'", "dim", report, check_formula, scope)
        if name in taken:
            report(domain.location, op, f"dim '{name}' is also {taken[name]}'s name; formulas would read that, "
                                        "not the drawn dim")
    for cycle in domain_cycles(v):
        report(v.location, op, f"domains read each other in a circle: {' -> '.join(cycle)}")


def _every_type(v: OpVersion, type_text: str, prefix: str) -> bool:
    """Whether every type a parameter type allows starts with `prefix` (`seq(tensor(`: a sequence of tensors;
    `map(`: a map)."""
    constraint = v.type_variable(type_text)
    types = constraint.types if constraint is not None else (type_text,)
    return all(t.startswith(prefix) for t in types)


def _free_shape(signature: tuple[str | int, ...] | None) -> bool:
    return signature is None or (len(signature) == 1 and isinstance(signature[0], str) and signature[0][:1] == "*")


def _check_one(v: OpVersion, domain: ValueDomain, what: str, kind: str, report: Report, check_formula: CheckFormula,
               scope: frozenset[str]) -> None:
    op = v.signature
    outputs = {p.name for p in v.outputs if not p.variadic} - scope_of_others(v)
    for key, formula in domain.formulas():
        check_formula(formula, f"{what}: domain {key}", domain.location,
                      scope | {CANDIDATE} if key == "dtype_where" else scope)
        for name in sorted(drawn_names(formula) & outputs):
            report(domain.location, op, f"{what}: domain {key} reads output '{name}' outside type_of/dtype (only an "
                                        "output's type is known before the case is drawn)")
    if domain.dtype_where is not None and domain.dtype_of is None:
        report(domain.location, op, f"{what}: domain dtype_where goes with dtype_of")
    misplaced = {"input": _NOT_ON_INPUTS, "attribute": _INPUT_ONLY, "dim": _NOT_ON_DIMS}[kind]
    for key in misplaced:
        if _given(domain, key):
            report(domain.location, op, f"{what}: domain key '{key}' does not apply to {kind}s")
    if kind == "attribute" and (domain.rank is not None or domain.empty is not None):
        report(domain.location, op, f"{what}: domain rank and empty apply to inputs and tuples, not attributes")
    if domain.among is not None and domain.axes is None and kind != "input":
        report(domain.location, op, f"{what}: domain among goes with axes (or a tensor input's values)")


def scope_of_others(v: OpVersion) -> set[str]:
    """Names a domain formula reads that are not outputs: attributes, inputs, lets, dims and signature names (a
    variadic output's name is its arity, an output may share a signature dim's name)."""
    names = {*v.attributes, *(p.name for p in v.inputs), *v.lets, *v.dims}
    names |= {str(d).lstrip("*") for p in v.inputs for d in p.shape or () if isinstance(d, str)}
    return names


def _given(domain: ValueDomain, key: str) -> bool:
    value = getattr(domain, key)
    return value not in (None, False, (), "")


def reads(domain: ValueDomain) -> frozenset[str]:
    """The names a domain's formulas read (`i` aside; an input only `type_of` reads is no shape it waits for)."""
    found: set[str] = set()
    for _, formula in domain.formulas():
        found |= drawn_names(formula)
    return frozenset(found - {ELEMENT, VALUE, CANDIDATE})


def _check_types(v: OpVersion, param: Param, report: Report) -> None:
    """`types`: the input has a type variable, and each entry is another type variable of the version or an element
    type that variable allows."""
    assert param.domain is not None
    where, op = param.domain.location, v.signature
    if v.type_variable(param.type) is None:
        report(where, op, f"input '{param.name}': domain types needs a type variable, not the fixed type {param.type}")
        return
    allowed = allowed_elements(v, param.type)
    for entry in param.domain.types:
        if entry == param.type or (entry not in v.type_constraints and entry not in allowed):
            report(where, op, f"input '{param.name}': domain types names '{entry}', neither another type variable "
                              f"nor an element type {param.type} allows ({', '.join(allowed)})")


def drawn_names(formula: Formula) -> frozenset[str]:
    """The free names of `formula` whose drawn values it reads: all but those only `type_of(X)` or `dtype(X)` reads (a
    type is bound before anything is drawn)."""
    typed = _type_of_arguments(formula.tree)
    if not typed:
        return formula.names
    return frozenset(n for n in formula.names if n not in typed or _read_outside_type_of(formula.tree, n))


def _type_of_arguments(node: Node | Slice | ForClause) -> set[str]:
    found = {a.id for a in node.args if isinstance(a, Name)} if isinstance(node, Call) and \
        node.function in TYPE_FORMS else set()
    for child in child_nodes(node):
        found |= _type_of_arguments(child)
    return found


def _read_outside_type_of(node: Node | Slice | ForClause, name: str) -> bool:
    if isinstance(node, Call) and node.function in TYPE_FORMS:
        return False
    if isinstance(node, Name):
        return node.id == name
    return any(_read_outside_type_of(child, name) for child in child_nodes(node))


def domain_cycles(v: OpVersion) -> list[list[str]]:
    """Circles among the names domains draw: a name whose domain reads (through lets) a name whose domain reads it
    back. Inputs, attributes and dims share one name space; an input's domain reading its own shape is no circle
    (its values follow its shape)."""
    edges: dict[str, set[str]] = {}
    for param in v.inputs:
        if param.domain is not None:
            edges[param.name] = set(_expanded(v, reads(param.domain))) - {param.name}
    for attr in v.attributes.values():
        if attr.domain is not None:
            edges[attr.name] = set(_expanded(v, reads(attr.domain))) - {attr.name}
    for name, domain in v.dims.items():
        edges[name] = set(_expanded(v, reads(domain))) - {name}
    cycles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the path, 2: done

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        for nxt in sorted(edges.get(name, ())):
            if state.get(nxt) == 1:
                cycles.append([*path[path.index(nxt):], nxt] if nxt in path else [name, nxt])
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[name] = 2

    for name in sorted(edges):
        if name not in state:
            visit(name, [name])
    return cycles


def _expanded(v: OpVersion, names: Iterable[str]) -> set[str]:
    """`names` with every let replaced by the names its formula reads and every input with a shape signature joined
    by the dims of its signature (its shape is made of them), recursively."""
    signatures = {p.name: [str(d).lstrip("*") for d in p.shape or () if isinstance(d, str)] for p in v.inputs}
    found: set[str] = set()
    pending = list(names)
    while pending:
        name = pending.pop()
        if name in found:
            continue
        found.add(name)
        pending.extend(drawn_names(v.lets[name]) if name in v.lets else signatures.get(name, ()))
    return {n for n in found if n not in v.lets}
