"""The order of a draw: what each drawn thing reads, and the order things are drawn in when nothing says otherwise.

A case is drawn as a set of items: each dim or tuple of the signatures (and each helper a version's `dims` adds),
each input's shape, each attribute, each input's values. An item is drawn after the items its domain reads (a
`kernel_shape` reading `S` and `dilations`, a shape reading its signature's dims, a dim the constraints derive from
`group`), so the builder (`conformance.strategies.builder`) draws every item once, pulling what it needs first.
Where nothing orders two items, the default order holds: dims, shapes, a hint's shapes, attributes, derived dims,
values (the order the builder always had).

An op with a hint that draws shapes keeps that order without pulling: its hint decides the shapes after the dims and
before the attributes, and the derived dims and the shapes made of them follow the attributes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from conformance.strategies.plan import DrawPlan
from opset.domain_checks import drawn_names
from opset.formula import Formula
from opset.formula.nodes import Call, ForClause, Name, Node, Slice, child_nodes
from opset.model import OpVersion, Param, ValueDomain

Item = tuple[str, str]  # (kind, name): ("dim", "S"), ("shape", "X"), ("hint", ""), ("attr", "axis"), ("values", "X")
HINT: Item = ("hint", "")
MULTIPLES: Item = ("multiples", "")  # a hint's draw: the dims the constraints make multiples, after the attributes
REDERIVE: Item = ("rederive", "")
VALUE_SHAPED = ("value", "one_of", "permutation", "axes")  # an input whose values (a list) give its shape


@dataclass
class Schedule:
    order: list[Item] = field(default_factory=list)
    deps: dict[Item, tuple[Item, ...]] = field(default_factory=dict)
    pull: bool = True  # draw what an item reads before it (False: the fixed order of a hint that draws shapes)


_SCHEDULES: dict[tuple[int, bool], tuple[OpVersion, Schedule]] = {}


def schedule_for(version: OpVersion, plan: DrawPlan, *, hint_shapes: bool) -> Schedule:
    """The schedule of `version` (cached per version object and hint mode)."""
    key = (id(version), hint_shapes)
    cached = _SCHEDULES.get(key)
    if cached is not None and cached[0] is version:
        return cached[1]
    schedule = _make_schedule(version, plan, hint_shapes)
    _SCHEDULES[key] = (version, schedule)
    return schedule


def value_shaped(domain: ValueDomain | None, signature: tuple[str | int, ...] | None = None,
                 shared: frozenset[str] = frozenset()) -> bool:
    """Whether an input's (or a list attribute's) domain gives its values as a whole list, whose length is its shape.
    Not where the shape is drawn first (`shapes`, `rank`, a signature fixing a size or naming a dim drawn elsewhere,
    `shared`: the value is broadcast to it) nor where `one_of` picks per element (`each`, or choices that read `i`).
    A signature `[K]` whose K nothing else reads is the list's length."""
    if domain is None or (domain.one_of and (domain.each or any("i" in f.names for f in domain.one_of))):
        return False
    if domain.shapes or domain.rank is not None:
        return False
    if signature is not None and not (len(signature) == 1 and isinstance(signature[0], str)
                                      and (signature[0].startswith("*") or signature[0] not in shared)):
        return False
    return any(getattr(domain, key) not in (None, ()) for key in VALUE_SHAPED)


def input_value_shaped(version: OpVersion, param: Param, domain: ValueDomain | None = None) -> bool:
    """`value_shaped` for an input of `version` (with `domain` for its own where given: an element type's keys):
    the dims other inputs' signatures and the version's dims name are drawn on their own."""
    shared = {str(d) for p in version.inputs if p is not param for d in p.shape or () if isinstance(d, str)}
    return value_shaped(domain or param.domain, param.shape, frozenset(shared | set(version.dims)))


def shape_owned(version: OpVersion) -> dict[str, str]:
    """Tuples whose input's domain draws its shape (`broadcast`, `shapes`) -> that input: the tuple is what the input's
    shape gives, never drawn on its own."""
    owned: dict[str, str] = {}
    for param in version.inputs:
        domain = param.domain
        if domain is None or (domain.broadcast is None and not domain.shapes) or param.shape is None:
            continue
        owned.update({str(d)[1:]: param.name for d in param.shape if isinstance(d, str) and d.startswith("*")})
    return owned


def _make_schedule(version: OpVersion, plan: DrawPlan, hint_shapes: bool) -> Schedule:
    schedule = Schedule(pull=not hint_shapes)
    owned = shape_owned(version)
    # a dim with a domain is drawn from it, whatever the constraints would derive
    free = [n for n in [*plan.tuples, *plan.dims, *(n for n in plan.derived if n in version.dims)] if n not in owned]
    helpers = [n for n in version.dims if n not in free]
    derived = [n for n in plan.derived if n not in version.dims]
    dims = [("dim", n) for n in [*free, *helpers]]
    schedule.order = [*dims, *(("shape", p.name) for p in version.inputs)]
    if hint_shapes:
        schedule.order.append(HINT)
    schedule.order += [("attr", name) for name in version.attributes]
    if hint_shapes:
        schedule.order.append(MULTIPLES)
    schedule.order += [("dim", n) for n in derived]
    schedule.order.append(REDERIVE)
    schedule.order += [("values", p.name) for p in version.inputs]
    resolve = _Resolver(version, plan)
    for kind, name in schedule.order:
        schedule.deps[(kind, name)] = tuple(resolve.item_deps(kind, name, hint_shapes))
    return schedule


class _Resolver:
    """What each item reads, as items."""

    def __init__(self, version: OpVersion, plan: DrawPlan) -> None:
        self.version = version
        self.plan = plan
        self.inputs = {p.name: p for p in version.inputs}
        self.dim_names = {*plan.tuples, *plan.dims, *plan.derived, *version.dims}
        self.owned = shape_owned(version)

    def item_deps(self, kind: str, name: str, hint_shapes: bool) -> list[Item]:
        found: list[Item] = []
        if kind == "dim":
            found += self._dim_deps(name)
        elif kind == "shape":
            found += self._shape_deps(name, hint_shapes)
        elif kind == "attr":
            attr = self.version.attributes[name]
            # the spec's length is read where the list is drawn element by element, not where a domain gives it whole
            formulas = [attr.length] if attr.length is not None and not value_shaped(attr.domain) else []
            formulas += [f for _, f in attr.domain.formulas()] if attr.domain is not None else []
            found += self.formula_deps(formulas)
        elif kind == "values":
            param = self.inputs[name]
            if param.domain is not None:
                found += self.formula_deps([f for _, f in param.domain.formulas()])
            if not input_value_shaped(self.version, param):
                found.append(("shape", name))
        return [item for item in dict.fromkeys(found) if item != (kind, name)]

    def _dim_deps(self, name: str) -> list[Item]:
        domain = self.version.dims.get(name)
        if domain is not None:
            return self.formula_deps([f for _, f in domain.formulas()])
        formulas = [f for f in (self.plan.derived.get(name), self.plan.multiple_of.get(name)) if f is not None]
        found = self.formula_deps(formulas)
        source = self.plan.same_tuple.get(name)
        return found + ([("dim", source)] if source is not None else [])

    def _shape_deps(self, name: str, hint_shapes: bool) -> list[Item]:
        param = self.inputs[name]
        domain = param.domain
        if input_value_shaped(self.version, param):
            return [("values", name)]
        found: list[Item] = []
        if param.shape is not None and not hint_shapes:
            found += [("dim", n) for n in (str(d).lstrip("*") for d in param.shape if isinstance(d, str))
                      if n not in self.owned]
        if name in self.plan.vector_of and not hint_shapes:
            found += self.formula_deps([self.plan.vector_of[name]])
        if domain is not None:
            found += self.formula_deps([f for _, f in domain.formulas()])

        setter = next((p.name for p in self.version.inputs if p.domain is not None
                       and p.domain.broadcast in ("legacy", "matmul")), None)
        if setter is not None and param is self.version.inputs[0]:
            found.append(("shape", setter))  # legacy and matmul broadcasting draw the first input with their own
        if param.shape is None and domain is None and name not in self.plan.vector_of:
            earlier = [p.name for p in self.version.inputs[:self.version.inputs.index(param)]]
            found += [("shape", n) for n in earlier]  # an elementwise partner of the first shaped input
        return found

    def formula_deps(self, formulas: list[Formula]) -> list[Item]:
        """The items the names of `formulas` stand for (lets read through; `value(X)` is X's values), in an order that
        is the same in every process: names come from sets, whose order follows the string hash, which Python seeds
        anew in each process, and the order of the items is the order of the draw."""
        found: list[Item] = []
        seen: set[str] = set()
        pending = [n for f in formulas for n in sorted(drawn_names(f), reverse=True)]
        valued = sorted({n for f in formulas for n in _value_arguments(f.tree)})
        found += [("values", n) for n in valued if n in self.inputs]
        while pending:
            n = pending.pop()
            if n in seen:
                continue
            seen.add(n)
            if n in self.version.lets:
                let = self.version.lets[n]
                pending.extend(sorted(drawn_names(let), reverse=True))
                found += [("values", v) for v in sorted(_value_arguments(let.tree)) if v in self.inputs]
            elif n in self.inputs:
                found.append(("shape", n))
            elif n in self.owned:
                found.append(("shape", self.owned[n]))
            elif n in self.version.attributes:
                found.append(("attr", n))
                default = self.version.attributes[n].default_expr
                if default is not None:  # read while it may be left off: what its default reads comes first
                    pending.extend(sorted(drawn_names(default), reverse=True))
            elif n in self.dim_names:
                found.append(("dim", n))
        return found


def _value_arguments(node: Node | Slice | ForClause) -> set[str]:
    """The inputs `value(X)` reads in a formula tree."""
    found: set[str] = set()
    if isinstance(node, Call) and node.function == "value":
        found |= {a.id for a in node.args if isinstance(a, Name)}
    for child in child_nodes(node):
        found |= _value_arguments(child)
    return found
