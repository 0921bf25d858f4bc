"""Third loading pass: what the meta-schema cannot check, over built records, every problem located."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from opset.attr_types import ATTR_TYPES, value_fits
from opset.domain_checks import check_domains
from opset.dtypes import ELEMENT_TYPES, NUMPY_TO_ELEMENT, apply_relation, is_valid_type, relation_source
from opset.errors import Problem
from opset.formula import Formula
from opset.frozen import thaw
from opset.model import Attribute, Location, MapsTo, OpSchema, OpVersion


class ProblemSink:
    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def add(self, location: Location | None, op: str | None, message: str, file: str = "") -> None:
        self.problems.append(Problem(location.file if location else file, location.line if location else None,
                                     op, message))


def check_op(op: OpSchema, sink: ProblemSink, *, folder_domain: str, file_stem: str) -> None:
    label = op.label
    first = op.versions[0].location
    if op.domain != folder_domain:
        sink.add(first, label, f"domain '{op.domain}' does not match its folder '{folder_domain}'")
    if op.name != file_stem:
        sink.add(first, label, f"op name '{op.name}' does not match its file name '{file_stem}.yaml'")
    if op.status.state == "removed" and not (op.status.removed_in or op.status.removed_at_opset):
        sink.add(first, label, "status removed needs removed_in or removed_at_opset")
    previous = 0
    for v in op.versions:
        if v.since <= previous:
            sink.add(v.location, label, f"versions out of order: since {v.since} follows since {previous}")
        previous = v.since
        check_version(v, sink)
        if (v.tengine is None) == (op.domain == "tengine"):
            need = ("needs a `tengine` block" if v.tengine is None
                    else "has a `tengine` block outside the tengine domain")
            sink.add(v.location, v.signature, need)


def check_version(v: OpVersion, sink: ProblemSink) -> None:
    op = v.signature
    names = _formula_scope(v, sink)
    for attr in v.attributes.values():
        _check_attribute(attr, op, sink, names)
    params = [*v.inputs, *v.outputs]
    for group in (v.inputs, v.outputs):
        for i, p in enumerate(group):
            if p.variadic and i != len(group) - 1:
                sink.add(p.location, op, f"variadic parameter '{p.name}' must be the last one")
    for p in params:
        if p.type not in v.type_constraints and not is_valid_type(p.type):
            sink.add(p.location, op, f"'{p.name}' has type '{p.type}': not a type variable of type_constraints "
                                     "nor a valid type")
    for tc in v.type_constraints.values():
        for t in tc.types:
            if not is_valid_type(t):
                sink.add(v.location, op, f"type constraint {tc.name}: invalid type '{t}'")
    for attr in v.attributes.values():
        _check_signature(v, attr, sink, names)
    _check_type_relations(v, sink)
    for p in v.outputs:
        if p.types is not None:
            _check_formula(p.types, f"types of output '{p.name}'", p.location, op, sink, names, allow_value=False)
        if p.formula is not None:
            _check_formula(p.formula, f"shape of output '{p.name}'", p.location, op, sink, names,
                           allow_value=p.data_dependent, allow_unknown=p.data_dependent)
        if p.value is not None:
            _check_formula(p.value, f"value of output '{p.name}'", p.location, op, sink, names, allow_value=True)
    for name, formula in v.lets.items():
        _check_formula(formula, f"let '{name}'", v.location, op, sink, names, allow_value=False)
    check_domains(v, lambda where, label, message: sink.add(where, label, message),
                  lambda formula, what, where, scope: _check_formula(formula, what, where, op, sink, scope,
                                                                     allow_value=True), names)
    seen: set[str] = set()
    for c in v.constraints:
        if c.id in seen:
            sink.add(c.location, op, f"duplicate constraint id '{c.id}'")
        seen.add(c.id)
        _check_formula(c.expr, f"constraint {c.id}", c.location, op, sink, names, allow_value=True)
    output_names = {p.name for p in v.outputs}
    for r in v.readings:
        if r.id in seen:
            sink.add(r.location, op, f"duplicate id '{r.id}'")
        seen.add(r.id)
        _check_formula(r.when, f"reading {r.id}", r.location, op, sink, names, allow_value=True)
        for out, formula in r.outputs.items():
            if out not in output_names:
                sink.add(r.location, op, f"reading {r.id}: '{out}' is not an output")
            _check_formula(formula, f"reading {r.id}, shape of '{out}'", r.location, op, sink, names,
                           allow_value=True, allow_unknown=True)
    if v.random is not None:
        _check_random(v, sink, names)
    if v.maps_to is not None:
        _check_mapping_formulas(v.maps_to, v, sink, names)
    if v.tengine is not None:
        _check_older_layouts(v, sink)
    for ex in v.examples:
        _check_example(v, ex.name, ex.attributes, ex.inputs, ex.outputs, ex.location, sink)


def _check_older_layouts(v: OpVersion, sink: ProblemSink) -> None:
    """An older struct of a Tengine op gives the version's attributes, from formulas over its own fields only; the
    NHWC permutations name the version's parameters."""
    assert v.tengine is not None
    params = {p.name for p in (*v.inputs, *v.outputs)}
    for name, perm in v.tengine.nhwc.items():
        if name not in params:
            sink.add(v.location, v.signature, f"tengine nhwc: '{name}' is not an input or output")
        if sorted(perm) != list(range(len(perm))):
            sink.add(v.location, v.signature, f"tengine nhwc: {list(perm)} for '{name}' is not a permutation")
    inputs = {p.name for p in v.inputs}
    for name, sources in v.tengine.bias_scale.items():
        unknown = [n for n in (name, *sources) if n not in inputs]
        if unknown:
            sink.add(v.location, v.signature, f"tengine bias_scale: {', '.join(unknown)} not an input")
    sizes: set[int] = set()
    for older in v.tengine.older_layouts:
        what = f"tengine older layout of {older.size} bytes"
        if older.size in sizes:
            sink.add(v.location, v.signature, f"{what}: another older layout has that size")
        sizes.add(older.size)
        fields = frozenset(f.name for f in older.fields)
        for name, formula in older.attributes.items():
            if name not in v.attributes:
                sink.add(v.location, v.signature, f"{what}: '{name}' is not an attribute")
            unknown = sorted(formula.names - fields)
            if unknown:
                sink.add(v.location, v.signature, f"{what}: attribute '{name}': '{formula.text}' names "
                                                  f"{', '.join(repr(n) for n in unknown)}, not a field of that struct")


def _check_mapping_formulas(m: MapsTo, v: OpVersion, sink: ProblemSink, names: frozenset[str]) -> None:
    """Every formula of a mapping (its follow-ups' and alternatives' too) reads only names the version has."""
    op = v.signature
    formulas = [(f"maps_to attribute '{t}'", f) for t, f in m.attributes.items()]
    formulas += [(f"maps_to const input '{n}'", c.value) for n, c in m.const_inputs.items()]
    formulas += [(f"maps_to reshape_inputs '{n}'", f) for n, f in m.reshape_inputs.items()]
    inverse_names = names | {n for f in m.inverse.values() for n in f.names if n.startswith("target_")}
    for n, f in m.inverse.items():  # `target_<name>`: the ONNX node's attribute <name>
        _check_formula(f, f"maps_to inverse '{n}'", v.location, op, sink, inverse_names, allow_value=True)
    for name in m.inverse:
        if name not in v.attributes:
            sink.add(v.location, op, f"maps_to inverse: '{name}' is not an attribute")
    if m.when is not None:
        formulas.append(("maps_to when", m.when))
    known = {p.name for p in v.inputs} | {"_", "", "@"}
    for then in m.then:
        unknown = [n for n in then.inputs or () if n not in known and n not in then.const_inputs]
        if then.name is not None:
            known.add(then.name)
        if unknown:
            sink.add(v.location, op, f"maps_to then {then.op}: inputs {', '.join(repr(n) for n in unknown)} are not "
                                     "'_', an input of the op or a const input")
        formulas += [(f"maps_to then {then.op} attribute '{t}'", f) for t, f in then.attributes.items()]
        formulas += [(f"maps_to then {then.op} const input '{n}'", c.value) for n, c in then.const_inputs.items()]
        if then.when is not None:
            formulas.append((f"maps_to then {then.op} when", then.when))
    for what, formula in formulas:  # value(): the converter knows a constant input's values
        _check_formula(formula, what, v.location, op, sink, names, allow_value=True)
    for alternative in m.alternatives:
        _check_mapping_formulas(alternative, v, sink, names)


def _check_type_relations(v: OpVersion, sink: ProblemSink) -> None:
    """Each relation names type variables, reads one, and gives only types its variable allows."""
    op = v.signature
    for name, expr in v.type_relations.items():
        target = v.type_variable(name)
        source_name = relation_source(expr)
        source = v.type_variable(source_name) if source_name is not None else None
        if target is None or source is None or source_name == name:
            sink.add(v.location, op, f"type relation {name}: '{expr}' must relate two type variables of "
                                     "type_constraints (element(S), seq(T), optional(V) or unwrap(O))")
            continue
        assert source_name is not None
        given = [t for t in source.types if apply_relation(expr, {source_name: t}) is not None]
        stray = sorted({str(apply_relation(expr, {source_name: t})) for t in given} - set(target.types))
        if not given or stray:
            why = f"gives {', '.join(stray)}" if stray else f"gives nothing for the types of {source_name}"
            sink.add(v.location, op, f"type relation {name} = {expr} {why}, which {name} does not allow")


def _check_random(v: OpVersion, sink: ProblemSink, names: frozenset[str]) -> None:
    """The `random` key: a known law with exactly its arguments, outputs of the version, tensor arguments naming
    a parameter, a seed naming an attribute, formulas over names in scope (value() allowed)."""
    from opset.random_laws import LAWS

    r, op = v.random, v.signature
    assert r is not None
    law = LAWS.get(r.law)
    if law is None:
        sink.add(r.location, op, f"random: unknown law '{r.law}' (one of {', '.join(LAWS)})")
        return
    outputs = {p.name for p in v.outputs}
    for name in r.outputs:
        if name not in outputs:
            sink.add(r.location, op, f"random: '{name}' is not an output")
    given = {*r.tensors, *r.scalars}
    missing = [a for a in law.arguments if a not in given and a not in law.optional]
    unknown = sorted(given - set(law.arguments))
    if missing or unknown:
        sink.add(r.location, op, f"random: law {law.name} takes {', '.join(law.arguments)}"
                                 + (f"; missing {', '.join(missing)}" if missing else "")
                                 + (f"; unknown {', '.join(unknown)}" if unknown else ""))
    params = {p.name for p in (*v.inputs, *v.outputs)}
    for arg, param in r.tensors.items():
        if param not in params:
            sink.add(r.location, op, f"random: argument {arg} names '{param}', not an input or output")
    for arg, formula in r.scalars.items():
        _check_formula(formula, f"random argument {arg}", r.location, op, sink, names, allow_value=True)
    if r.when is not None:
        _check_formula(r.when, "random when", r.location, op, sink, names, allow_value=True)
    if r.seed is not None and r.seed not in v.attributes:
        sink.add(r.location, op, f"random: seed '{r.seed}' is not an attribute")


def _formula_scope(v: OpVersion, sink: ProblemSink) -> frozenset[str]:
    names: set[str] = set(v.attributes) | set(v.lets)
    seen_params: set[str] = set()
    for p in [*v.inputs, *v.outputs]:
        if p.name in seen_params:
            sink.add(p.location, v.signature, f"parameter name '{p.name}' is used twice")
        if p.name in v.attributes:
            sink.add(p.location, v.signature, f"parameter '{p.name}' has the name of an attribute")
        seen_params.add(p.name)
    for p in v.inputs:
        names.add(p.name)
        for dim in p.shape or ():
            if isinstance(dim, str):
                names.add(dim.lstrip("*"))
    names.update(p.name for p in v.outputs if p.variadic)  # the number of values the node gives it
    return frozenset(names)


def _check_signature(v: OpVersion, attr: Attribute, sink: ProblemSink, names: frozenset[str]) -> None:
    """A graph attribute's signature: on graph attributes only, typed by the version's type variables or valid
    types, unique names, at most one variadic part per side whose count is left to the graph."""
    signature = attr.signature
    if signature is None:
        return
    op, where = v.signature, attr.location
    if ATTR_TYPES[attr.type].name not in ("graph", "graphs"):
        sink.add(where, op, f"attribute '{attr.name}': a signature needs a graph attribute, not {attr.type}")
    for side, parts in (("input", signature.inputs), ("output", signature.outputs)):
        seen: set[str] = set()
        for part in parts:
            what = f"attribute '{attr.name}', signature {side} '{part.name}'"
            if part.name in seen:
                sink.add(where, op, f"{what}: the name is used twice")
            seen.add(part.name)
            if part.type not in v.type_constraints and not is_valid_type(part.type):
                sink.add(where, op, f"{what}: type '{part.type}' is not a type variable of type_constraints "
                                    "nor a valid type")
            if not part.variadic and part.count is not None:
                sink.add(where, op, f"{what}: only a variadic part has a count")
            for key, formula in (("count", part.count), ("shape", part.shape), ("types", part.types)):
                if formula is not None:
                    _check_formula(formula, f"{what}: {key}", where, op, sink, names, allow_value=False)
        open_ended = [p.name for p in parts if p.variadic and p.count is None]
        if len(open_ended) > 1:
            sink.add(where, op, f"attribute '{attr.name}': signature {side}s {', '.join(open_ended)} are variadic "
                                "without a count; at most one part may take what the others leave")


def _check_attribute(attr: Attribute, op: str, sink: ProblemSink, names: frozenset[str]) -> None:
    where = attr.location
    if attr.required and attr.has_default:
        sink.add(where, op, f"attribute '{attr.name}' is required and has a default")
    if attr.default is not None and not value_fits(attr.type, attr.default):
        sink.add(where, op, f"attribute '{attr.name}': default {thaw(attr.default)!r} is not of type {attr.type}")
    element_type = ATTR_TYPES[attr.type].element or attr.type
    for allowed in attr.allowed or ():
        if not value_fits(element_type, allowed):
            sink.add(where, op, f"attribute '{attr.name}': allowed value {allowed!r} is not of type {element_type}")
    if attr.allowed is not None and attr.default is not None:
        values = attr.default if isinstance(attr.default, tuple) else [attr.default]
        bad = [x for x in values if x not in attr.allowed]
        if bad:
            sink.add(where, op,
                     f"attribute '{attr.name}': default {thaw(attr.default)!r} is not among the allowed values")
    if attr.range is not None:
        if element_type not in ("int", "float"):
            sink.add(where, op, f"attribute '{attr.name}': a range needs a numeric type, not {attr.type}")
        lo, hi = attr.range
        if lo is not None and hi is not None and lo > hi:
            sink.add(where, op, f"attribute '{attr.name}': range [{lo}, {hi}] is empty")
        values = attr.default if isinstance(attr.default, tuple) else [attr.default]
        if attr.default is not None and any(
                isinstance(x, int | float) and ((lo is not None and x < lo) or (hi is not None and x > hi))
                for x in values):
            sink.add(where, op,
                     f"attribute '{attr.name}': default {thaw(attr.default)!r} is outside range [{lo}, {hi}]")
    if attr.default_expr is not None:
        _check_formula(attr.default_expr, f"default of '{attr.name}'", where, op, sink, names, allow_value=False)
    if attr.length is not None:
        _check_formula(attr.length, f"length of '{attr.name}'", where, op, sink, names, allow_value=False)


def _check_formula(formula: Formula, what: str, where: Location | None, op: str, sink: ProblemSink,
                   names: Iterable[str], *, allow_value: bool, allow_unknown: bool = False) -> None:
    """The names a parsed formula uses are in scope (parse errors were reported when it was built)."""
    unknown = sorted(formula.names - frozenset(names))
    if unknown:
        sink.add(where, op, f"{what}: '{formula.text}' names unknown {', '.join(repr(n) for n in unknown)} "
                            "(not an attribute, input, dim or let)")
    if formula.uses_value and not allow_value:
        sink.add(where, op, f"{what}: value() is only allowed in data-dependent output shapes, output values, "
                            "readings and constraints")
    if "unknown" in formula.calls and not allow_unknown:
        sink.add(where, op, f"{what}: unknown() is only allowed in data-dependent output shapes")


def _check_example(v: OpVersion, name: str, attributes: Mapping[str, Any], inputs: Mapping[str, Any],
                   outputs: Mapping[str, Any], where: Location | None, sink: ProblemSink) -> None:
    op = v.signature
    for attr_name, value in attributes.items():
        attr = v.attributes.get(attr_name)
        if attr is None:
            sink.add(where, op, f"example {name}: unknown attribute '{attr_name}'")
        elif not value_fits(attr.type, value):
            sink.add(where, op, f"example {name}: attribute '{attr_name}' = {thaw(value)!r} is not of type {attr.type}")
    for kind, given, params in (("input", inputs, v.inputs), ("output", outputs, v.outputs)):
        known = {p.name: p for p in params}
        for param_name, array in given.items():
            param = known.get(param_name)
            if param is None:
                sink.add(where, op, f"example {name}: unknown {kind} '{param_name}'")
                continue
            if isinstance(array, tuple) and not param.variadic:
                sink.add(where, op, f"example {name}: {kind} '{param_name}' is not variadic: give one array")
                continue
            for item in array if isinstance(array, tuple) else [array]:
                problem = array_literal_problem(item) if item is not None else None
                if problem:
                    sink.add(where, op, f"example {name}: {kind} '{param_name}': {problem}")


def array_literal_problem(array: Mapping[str, Any]) -> str | None:
    """Why an example array `{dtype, shape, data}` (frozen or plain) is malformed, or None."""
    dtype = array["dtype"]
    if dtype not in NUMPY_TO_ELEMENT and dtype not in ELEMENT_TYPES:
        return f"unknown dtype '{dtype}'"
    if "shape" in array:
        data = array["data"]
        if not isinstance(data, list | tuple):
            data = [data]
        size = math.prod(array["shape"])
        if len(data) != size:
            return f"shape {list(array['shape'])} needs {size} values, data has {len(data)}"
    return None
