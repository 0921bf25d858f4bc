"""Second loading pass: plain, meta-schema-valid data of one op file -> frozen `OpSchema`.

Versions inherit from the version before them (docs/format.md, "Inheritance between versions");
what comes out of here is complete. Every formula is parsed here, once, into the records; a formula
that does not parse is reported to `problems` (located) and left out of the record. Other semantic
checks happen in `opset.checks`. A cache hit does not come here: the cache keeps the built records
(`opset.record_table`).
"""

from __future__ import annotations

from typing import Any

from opset.build_domains import dims_domains, value_domain
from opset.dtypes import canonical_type
from opset.errors import Problem
from opset.formula import Formula, FormulaError, parse
from opset.frozen import FrozenMap, freeze
from opset.lines import LineMap, line_of
from opset.model import (
    Attribute,
    BinaryField,
    ConstInput,
    Constraint,
    Example,
    FollowUp,
    GraphParam,
    GraphSignature,
    Location,
    MapsTo,
    OlderLayout,
    OpSchema,
    OpVersion,
    Param,
    Precision,
    Property,
    RandomOutputs,
    Reading,
    Status,
    Tengine,
    Tolerance,
    TypeConstraint,
    op_label,
)

DEFAULT_TOLERANCE: FrozenMap[str, Tolerance] = FrozenMap({
    "float16": Tolerance(rtol=1e-3, atol=1e-3),
    "bfloat16": Tolerance(rtol=1e-2, atol=1e-2),
    "float": Tolerance(rtol=1e-5, atol=1e-6),
    "double": Tolerance(rtol=1e-12, atol=1e-12),
})

_MERGED_BY_NAME = ("attributes", "type_constraints", "let", "type_relations", "dims")
_REPLACED = ("inputs", "outputs", "constraints", "readings", "doc", "summary", "tolerance", "precision", "properties",
             "maps_to", "tengine", "random", "unmapped")


class _Where:
    """Turns a path inside the file into a Location, and formula text into a Formula (or a located problem)."""

    def __init__(self, file: str, lines: LineMap, problems: list[Problem]) -> None:
        self.file = file
        self.lines = lines
        self.problems = problems

    def __call__(self, *path: str | int) -> Location:
        return Location(self.file, line_of(self.lines, path) or 1)

    def formula(self, text: Any, what: str, location: Location, op: str) -> Formula | None:
        try:
            return parse(str(text))
        except FormulaError as e:
            self.problems.append(Problem(location.file, location.line, op, f"{what}: cannot parse '{text}': {e}"))
            return None


def build_op(data: dict[str, Any], lines: LineMap, file: str, problems: list[Problem]) -> OpSchema:
    """The op of one meta-schema-valid file; every formula text becomes a `Formula`, parsed now: a parse error is
    reported to `problems`, located."""
    where = _Where(file, lines, problems)
    status = _status(data.get("status"))
    top_tolerance = {**DEFAULT_TOLERANCE, **_tolerance(data.get("tolerance"))}
    state: dict[str, Any] = {
        "attributes": {}, "type_constraints": {}, "let": {}, "type_relations": {}, "dims": {}, "inputs": [],
        "outputs": [],
        "constraints": [], "readings": [],
        "doc": data.get("doc", ""), "summary": data["summary"], "tolerance": None, "properties": [],
        "precision": data.get("precision"),
        "maps_to": None, "tengine": None, "random": None, "unmapped": "",
    }
    # remember which version index each inherited entry came from, so locations point at its text
    origin: dict[tuple[str, str], int] = {}
    versions: list[OpVersion] = []
    raw_versions = data["versions"]
    for index, raw in enumerate(raw_versions):
        for key in _MERGED_BY_NAME:
            for name, spec in (raw.get(key) or {}).items():
                if spec is None:
                    state[key].pop(name, None)
                else:
                    state[key][name] = spec
                    origin[(key, name)] = index
        for key in _REPLACED:
            if key in raw:
                state[key] = raw[key]
                origin[(key, "")] = index
        nxt = raw_versions[index + 1]["since"] if index + 1 < len(raw_versions) else None
        versions.append(_version(data, raw, index, state, origin, where, status, top_tolerance, nxt))
    return OpSchema(domain=data["domain"], name=data["name"], category=data["category"], summary=data["summary"],
                    versions=tuple(versions), status=status, file=file, seed_note=data.get("seed_note", ""),
                    no_reference_kernel=data.get("no_reference_kernel", ""),
                    drawn_by_hint=data.get("drawn_by_hint", ""))


def _version(data: dict[str, Any], raw: dict[str, Any], index: int, state: dict[str, Any],
             origin: dict[tuple[str, str], int], where: _Where, status: Status,
             top_tolerance: dict[str, Tolerance], next_since: int | None) -> OpVersion:
    def at(key: str, name: str, *rest: str | int) -> Location:
        return where("versions", origin.get((key, name), index), key, *((name,) if name else ()), *rest)

    label = op_label(data["domain"], data["name"], raw["since"])
    location = where("versions", index)
    attributes = FrozenMap({name: _attribute(name, spec, at("attributes", name), where, label)
                            for name, spec in state["attributes"].items()})
    inputs = tuple(_param(p, at("inputs", "", i), where, label, is_input=True) for i, p in enumerate(state["inputs"]))
    outputs = tuple(_param(p, at("outputs", "", i), where, label, is_input=False)
                    for i, p in enumerate(state["outputs"]))
    type_constraints = {}
    for name, spec in state["type_constraints"].items():
        types, doc = (spec, "") if isinstance(spec, list) else (spec["types"], spec.get("doc", ""))
        type_constraints[name] = TypeConstraint(name=name, types=tuple(canonical_type(t) for t in types), doc=doc)
    constraints = []
    for i, c in enumerate(state["constraints"]):
        c_location = at("constraints", "", i)
        expr = where.formula(c["expr"], f"constraint {c['id']}", c_location, label)
        if expr is not None:
            constraints.append(Constraint(id=c["id"], expr=expr, message=c.get("message", ""), location=c_location))
    readings = tuple(r for i, raw_reading in enumerate(state["readings"])
                     if (r := _reading(raw_reading, at("readings", "", i), where, label)) is not None)
    lets = {}
    for name, text in state["let"].items():
        formula = where.formula(text, f"let '{name}'", location, label)
        if formula is not None:
            lets[name] = formula
    examples = tuple(Example(name=e["name"], attributes=freeze(e.get("attributes") or {}), inputs=freeze(e["inputs"]),
                             outputs=freeze(e["outputs"]), doc=e.get("doc", ""),
                             location=where("versions", index, "examples", i))
                     for i, e in enumerate(raw.get("examples") or ()))
    tolerance = FrozenMap({**top_tolerance, **_tolerance(state["tolerance"])})
    properties = tuple(Property("range", freeze(p["range"])) if isinstance(p, dict) else Property(p)
                       for p in state["properties"])
    last = next_since - 1 if next_since is not None else None
    return OpVersion(
        domain=data["domain"], name=data["name"], since=raw["since"],
        changes=raw.get("changes", "initial" if index == 0 else ""), summary=state["summary"], doc=state["doc"],
        category=data["category"], status=status, attributes=attributes, inputs=inputs, outputs=outputs,
        type_constraints=FrozenMap(type_constraints), lets=FrozenMap(lets), constraints=tuple(constraints),
        examples=examples, tolerance=tolerance, properties=properties,
        maps_to=_maps_to(state["maps_to"], location, where, label),
        tengine=_tengine(state["tengine"], location, where, label), location=location, last=last, readings=readings,
        type_relations=FrozenMap({name: str(e).replace(" ", "") for name, e in state["type_relations"].items()}),
        random=_random(state["random"], at("random", ""), where, label), unmapped=state["unmapped"] or "",
        dims=dims_domains(state["dims"], lambda name: at("dims", name), label, where.formula),
        precision=_precision(state["precision"], attributes, at("precision", ""), where, label))


def _precision(raw: dict[str, Any] | None, attributes: FrozenMap[str, Attribute], location: Location,
               where: _Where, op: str) -> Precision | None:
    """The version's precision policy; a `stash` naming no int attribute of the version is a located problem."""
    if raw is None:
        return None
    stash = raw.get("stash")
    if stash is not None and (stash not in attributes or attributes[stash].type != "int"):
        where.problems.append(Problem(location.file, location.line, op,
                                      f"precision: stash names '{stash}', which is no int attribute of the version"))
        stash = None
    return Precision(narrow=raw.get("narrow", "widened"), stash=stash,
                     accumulate=tuple(raw.get("accumulate", ("element",))), note=raw.get("note", ""))


def _reading(raw: dict[str, Any], location: Location, where: _Where, op: str) -> Reading | None:
    when = where.formula(raw["when"], f"reading {raw['id']}", location, op)
    outputs = {}
    for name, text in (raw.get("outputs") or {}).items():
        formula = where.formula(text, f"reading {raw['id']}, shape of '{name}'", location, op)
        if formula is not None:
            outputs[name] = formula
    if when is None:
        return None
    return Reading(id=raw["id"], when=when, outputs=FrozenMap(outputs), followed_by=tuple(raw["followed_by"]),
                   note=raw["note"], location=location, kernel=bool(raw.get("kernel", False)))


def _random(raw: dict[str, Any] | None, location: Location, where: _Where, op: str) -> RandomOutputs | None:
    """A version's `random` key; an argument the law (opset.random_laws) calls a tensor names a parameter, the
    others are formulas. An unknown law or argument is left for opset.checks to report."""
    from opset.random_laws import LAWS

    if raw is None:
        return None
    law = LAWS.get(raw["law"])
    tensors: dict[str, str] = {}
    scalars: dict[str, Formula] = {}
    for name, text in (raw.get("args") or {}).items():
        if law is not None and name in law.tensors:
            tensors[name] = str(text)
            continue
        formula = where.formula(text, f"random argument '{name}'", location, op)
        if formula is not None:
            scalars[name] = formula
    when = where.formula(raw["when"], "random when", location, op) if "when" in raw else None
    return RandomOutputs(law=raw["law"], outputs=tuple(raw["outputs"]), tensors=FrozenMap(tensors),
                         scalars=FrozenMap(scalars), seed=raw.get("seed"), when=when, location=location)


def _attribute(name: str, spec: dict[str, Any], location: Location, where: _Where, op: str) -> Attribute:
    rng = spec.get("range")
    length = spec.get("length")
    default_expr = spec.get("default_expr")
    return Attribute(
        name=name, type=spec["type"], required=spec.get("required", False), default=freeze(spec.get("default")),
        default_expr=(where.formula(default_expr, f"default of '{name}'", location, op)
                      if default_expr is not None else None),
        allowed=freeze(spec["allowed"]) if "allowed" in spec else None,
        range=(rng[0], rng[1]) if rng is not None else None,
        length=where.formula(length, f"length of '{name}'", location, op) if length is not None else None,
        hint=spec.get("hint", False), doc=spec.get("doc", ""), location=location,
        signature=_signature(name, spec.get("signature"), location, where, op),
        domain=value_domain(spec.get("domain"), f"attribute '{name}'", location, op, where.formula))


def _signature(attribute: str, raw: dict[str, Any] | None, location: Location, where: _Where,
               op: str) -> GraphSignature | None:
    if raw is None:
        return None

    def part(spec: dict[str, Any], side: str) -> GraphParam:
        what = f"signature of '{attribute}', {side} '{spec['name']}'"

        def formula(key: str) -> Formula | None:
            text = spec.get(key)
            return where.formula(text, f"{what}: {key}", location, op) if text is not None else None

        return GraphParam(name=spec["name"], type=canonical_type(spec["type"]), variadic=spec.get("variadic", False),
                          min_arity=spec.get("min_arity", 1), count=formula("count"), shape=formula("shape"),
                          types=formula("types"), doc=spec.get("doc", ""))

    return GraphSignature(inputs=tuple(part(p, "input") for p in raw["inputs"]),
                          outputs=tuple(part(p, "output") for p in raw["outputs"]))


def _param(spec: dict[str, Any], location: Location, where: _Where, op: str, *, is_input: bool) -> Param:
    shape = spec.get("shape")
    signature: tuple[str | int, ...] | None = None
    formula: Formula | None = None
    if is_input and shape is not None:
        signature = (shape,) if isinstance(shape, str) else tuple(shape)
    elif not is_input and shape is not None:
        formula = where.formula(shape, f"shape of output '{spec['name']}'", location, op)
    return Param(
        name=spec["name"], type=canonical_type(spec["type"]), optional=spec.get("optional", False),
        variadic=spec.get("variadic", False), min_arity=spec.get("min_arity", 1),
        homogeneous=spec.get("homogeneous", True), shape=signature, formula=formula,
        data_dependent=spec.get("data_dependent", False), doc=spec.get("doc", ""), location=location,
        value=(where.formula(spec["value"], f"value of output '{spec['name']}'", location, op)
               if not is_input and "value" in spec else None),
        types=(where.formula(spec["types"], f"types of output '{spec['name']}'", location, op)
               if not is_input and "types" in spec else None),
        domain=value_domain(spec.get("domain"), f"{'input' if is_input else 'output'} '{spec['name']}'", location, op,
                            where.formula),
        role=spec.get("role", "data") if is_input else "data")


def _status(raw: dict[str, Any] | None) -> Status:
    if raw is None:
        return Status()
    return Status(state=raw["state"], since=raw.get("since"), removed_in=raw.get("removed_in"),
                  removed_at_opset=raw.get("removed_at_opset"), replacement=raw.get("replacement"),
                  note=raw.get("note", ""))


def _tolerance(raw: dict[str, Any] | None) -> dict[str, Tolerance]:
    return {k: Tolerance(rtol=v["rtol"], atol=v["atol"]) for k, v in (raw or {}).items()}


def _maps_to(raw: dict[str, Any] | None, location: Location, where: _Where, op: str) -> MapsTo | None:
    if raw is None:
        return None

    def formulas(texts: dict[str, Any] | None, what: str) -> FrozenMap[str, Formula]:
        found = {}
        for target, text in (texts or {}).items():
            formula = where.formula(text, f"{what} '{target}'", location, op)
            if formula is not None:
                found[target] = formula
        return FrozenMap(found)

    def consts(texts: dict[str, Any] | None) -> FrozenMap[str, ConstInput]:
        found = {}
        for name, spec in (texts or {}).items():
            formula = where.formula(spec["value"], f"maps_to const input '{name}'", location, op)
            if formula is not None:
                found[name] = ConstInput(formula, spec["type"])
        return FrozenMap(found)

    def when(text: Any) -> Formula | None:
        return None if text is None else where.formula(text, "maps_to when", location, op)

    then = tuple(FollowUp(op=t["op"], when=when(t.get("when")), attributes=formulas(t.get("attributes"),
                                                                                        "maps_to then attribute"),
                          const_inputs=consts(t.get("const_inputs")),
                          inputs=tuple(t["inputs"]) if "inputs" in t else None, name=t.get("as"))
                 for t in raw.get("then") or ())
    alternatives = tuple(m for m in (_maps_to(a, location, where, op) for a in raw.get("alternatives") or ())
                         if m is not None)
    return MapsTo(domain=raw["domain"], op=raw["op"], opset=raw["opset"],
                  attributes=formulas(raw.get("attributes"), "maps_to attribute"),
                  inputs=tuple(raw["inputs"]) if "inputs" in raw else None, exact=raw.get("exact", True),
                  note=raw.get("note", ""), when=when(raw.get("when")), const_inputs=consts(raw.get("const_inputs")),
                  then=then, alternatives=alternatives, unmapped=raw.get("unmapped", ""),
                  reshape_inputs=formulas(raw.get("reshape_inputs"), "maps_to reshape_inputs"),
                  per_output=raw.get("per_output", False), fold=raw.get("fold", False),
                  cast_inputs=FrozenMap(raw.get("cast_inputs") or {}),
                  cast_outputs=FrozenMap(raw.get("cast_outputs") or {}),
                  inverse=formulas(raw.get("inverse"), "maps_to inverse"))


def _binary_fields(raw: list[dict[str, Any]]) -> tuple[BinaryField, ...]:
    return tuple(BinaryField(name=f["name"], ctype=f["ctype"], default=freeze(f.get("default")),
                             attribute=f.get("attribute"), doc=f.get("doc", ""), flag=f.get("flag", False))
                 for f in raw)


def _tengine(raw: dict[str, Any] | None, location: Location, where: _Where, op: str) -> Tengine | None:
    if raw is None:
        return None
    older = []
    for o in raw.get("older_layouts") or ():
        found = {}
        for name, text in (o.get("attributes") or {}).items():
            formula = where.formula(text, f"tengine older layout attribute '{name}'", location, op)
            if formula is not None:
                found[name] = formula
        older.append(OlderLayout(size=o["size"], fields=_binary_fields(o["fields"]), attributes=FrozenMap(found),
                                 doc=o.get("doc", "")))
    return Tengine(op_id=raw["op_id"], category=raw["category"], param_struct=raw.get("param_struct"),
                   layout=_binary_fields(raw["layout"]), seed_defaults=freeze(raw.get("seed_defaults") or {}),
                   older_layouts=tuple(older),
                   nhwc=FrozenMap({k: tuple(v) for k, v in (raw.get("nhwc") or {}).items()}),
                   bias_scale=FrozenMap({k: tuple(v) for k, v in (raw.get("bias_scale") or {}).items()}))
