"""Drawing one case's items (`conformance.strategies.schedule`): dims, shapes, attributes and values, each once,
each after what its domain reads, from the version's domains (`conformance.strategies.domains`), its constraints'
construction rules (`conformance.strategies.plan`) and, where an op keeps one, its hint.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
from hypothesis import strategies as st

from conformance.containers import shape_of
from conformance.strategies import domains as dom
from conformance.strategies.attributes import OMIT, DrawFn, draw_attribute, list_length
from conformance.strategies.cell_types import code_or_name, drawable_types, held_element
from conformance.strategies.containers import (
    MAX_CONTAINER_RANK,
    MAX_LENGTH,
    draw_layout,
    fill_container,
    is_tensor_sequence,
    sequence_shapes,
)
from conformance.strategies.context import DrawContext
from conformance.strategies.hints import OpHint, set_input_shape
from conformance.strategies.memo import BOOLEANS, integers
from conformance.strategies.plan import DrawPlan
from conformance.strategies.schedule import Item, Schedule, input_value_shaped
from conformance.strategies.values import SEEDS, fill_array
from opset.domain_checks import CANDIDATE, VALUE
from opset.dtypes import is_container, map_parts, tensor_element
from opset.formula import Formula, FormulaError, Undecided
from opset.formula.graph_value import TYPES_KEY
from opset.formula.nodes import Const
from opset.frozen import thaw
from opset.infer import bind_inputs
from opset.model import Attribute, Param, ValueDomain

MAX_BROADCAST_RANK = 4
ALWAYS = Formula.from_tree(Const(True))  # a map's keys are distinct
LEGACY_ATTRIBUTES = ("broadcast", "axis")  # what `broadcast: legacy` draws with B's shape


class DrawCycle(Exception):
    """Two items of a version read each other: the registry's domains are circular (`opset lint` reports it)."""


class Builder:
    """Draws the items of one case into `ctx`, each once, in the schedule's order, what an item reads first."""

    def __init__(self, draw: DrawFn, ctx: DrawContext, plan: DrawPlan, schedule: Schedule, hint: OpHint,
                 max_rank: int) -> None:
        self.draw, self.ctx, self.plan, self.schedule, self.hint = draw, ctx, plan, schedule, hint
        self.max_rank = max_rank
        self.done: set[Item] = set()
        self.active: list[Item] = []
        self.params = {p.name: p for p in ctx.version.inputs}
        self.legacy = any(p.domain is not None and p.domain.broadcast == "legacy" for p in ctx.version.inputs)

    def run(self) -> None:
        """Every item; raises `domains.Undrawable` when this draw cannot be completed (the caller draws again)."""
        self._arities()
        for item in self.schedule.order:
            self.ensure(item)

    def ensure(self, item: Item) -> None:
        if item in self.done:
            return
        if item in self.active:
            raise DrawCycle(f"{self.ctx.version.signature}: {' -> '.join(map(str, [*self.active, item]))}")
        self.active.append(item)
        if self.schedule.pull:
            for dep in self.schedule.deps.get(item, ()):
                self.ensure(dep)
        kind, name = item
        getattr(self, f"_{kind}")(name)
        self.active.pop()
        self.done.add(item)

    def output_count(self) -> int:
        """How many outputs the node names: every required one, and optional ones as a prefix (no gaps), so each
        optional output is checked too; an output's domain says where it is asked for (`present`, `when`), and a
        hint may fix the count where the op ties outputs to inputs."""
        outputs = self.ctx.version.outputs
        if any(p.variadic for p in outputs):
            return sum(1 for p in outputs if not p.optional)
        if self.hint.outputs is not None:
            return self.hint.outputs(self.draw, self.ctx)
        low = max((i + 1 for i, p in enumerate(outputs) if not p.optional), default=0)
        high = len(outputs)
        for i, param in enumerate(outputs):
            decided = self._presence(param.domain) if param.optional else None
            if decided is False:
                high = min(high, i)
            elif decided is True:
                low = max(low, i + 1)
        if low > high:
            raise dom.Undrawable(f"outputs: asked for up to {high} but at least {low}")
        return int(self.draw(integers(low, high))) if low < high else high

    # ---- the environment formulas see ----------------------------------------------------------------------

    def env(self) -> dict[str, Any]:
        """Inputs as shapes, dims, attributes (given, else their defaults), lets: whatever is drawn so far."""
        ctx = self.ctx
        env: dict[str, Any] = bind_inputs(ctx.version, positional_shapes(ctx), [])
        env.update(ctx.dims)
        # for type_of(X) and dtype(X); an output's type too (type_of(Y)), bound before anything is drawn
        env[TYPES_KEY] = {p.name: ctx.type_of(p.type) for p in [*ctx.version.inputs, *ctx.version.outputs]}
        for param in ctx.version.outputs:
            env.setdefault(param.name, None)
        pending: dict[str, Formula] = {}
        for name, attr in ctx.version.attributes.items():
            if name in ctx.attributes:
                env[name] = ctx.attributes[name]
            elif attr.default is not None or attr.default_expr is None:
                env[name] = thaw(attr.default)
            else:
                pending[name] = attr.default_expr
        for _ in range(2):  # a let may read a default_expr's attribute and a default_expr a let
            for name, formula in ctx.version.lets.items():
                _try(env, name, formula, self.values())
            for name, formula in list(pending.items()):
                if _try(env, name, formula, self.values()):
                    del pending[name]
        for name in pending:
            env.setdefault(name, None)
        arity = ctx.scratch.get("arity", {})  # a variadic output's name: how many values the node gives it
        env.update({p.name: arity[p.name] for p in ctx.version.outputs if p.variadic and p.name in arity})
        return env

    def values(self) -> dict[str, list[Any]]:
        """Drawn input values, flat, for `value(X)`."""
        return {name: array.ravel().tolist() for name, array in self.ctx.arrays.items()
                if isinstance(array, np.ndarray) and array.dtype.kind in "iufb" and array.size <= 4096}

    # ---- items ---------------------------------------------------------------------------------------------

    def _arities(self) -> None:
        for param in self.ctx.version.outputs:
            if param.variadic:  # used where the formulas leave the count to the node (Split without lengths)
                self.ctx.scratch.setdefault("arity", {})[param.name] = self.draw(
                    integers(param.min_arity, param.min_arity + 2))

    def _dim(self, name: str) -> None:
        ctx, plan = self.ctx, self.plan
        if self.hint.shapes is not None and name in ctx.dims:
            return  # the hint's shapes set it (`set_input_shape`): a construction rule must not redraw it
        domain = dom.for_element(ctx.version.dims.get(name), ctx.dtype)
        if domain is None and name in plan.derived:
            value = dom.evaluate(plan.derived[name], self.env(), self.values())
            if not isinstance(value, int) or value < 1:
                raise dom.Undrawable(f"derived dim {name} = {value!r}")
            ctx.dims[name] = value
            return
        if domain is None and name in plan.same_tuple:
            source = plan.same_tuple[name]
            if isinstance(ctx.dims.get(source), list) and source not in plan.same_tuple:
                ctx.dims[name] = list(ctx.dims[source])
                return
        if domain is not None and domain.value is not None:  # a helper's value may be None (no rule this draw)
            ctx.dims[name] = dom.evaluate(domain.value, self.env(), self.values())
            return
        if domain is not None:
            given, value = dom.chosen(self.draw, domain, self.env(), self.values())
            if given:
                ctx.dims[name] = value
                return
        env = self.env()
        if name in plan.tuples or (domain is not None and domain.rank is not None):  # a helper with a rank: a tuple
            low, high = plan.rank_bounds.get(name, (self.hint.min_rank, self.max_rank))
            low, high = max(low, self.hint.min_rank), min(high, self.hint.max_rank or self.max_rank)
            rank = dom.draw_rank(self.draw, domain, env, self.values(), low, max(low, high))
            sizes = [dom.draw_size(self.draw, domain, env, self.values(), ctx.max_side, i) for i in range(rank)]
            ctx.dims[name] = dom.with_empty_dim(self.draw, domain, env, self.values(),
                                                _with_product(plan.min_prod.get(name, 1), sizes))
            return
        helper = name not in plan.dims and name not in plan.derived
        ctx.dims[name] = dom.draw_size(self.draw, domain, env, self.values(), ctx.max_side, helper=helper)
        if domain is None and name in plan.multiple_of and self.schedule.pull:
            self._multiply(name)

    def _multiply(self, name: str) -> None:
        factor = dom.evaluate(self.plan.multiple_of[name], self.env(), self.values())
        if not isinstance(factor, int) or factor < 1:
            raise dom.Undrawable(f"{name} must be a multiple of {factor!r}")
        self.ctx.dims[name] *= factor

    def _multiples(self, _: str) -> None:
        """A hint's draw: the multiples the constraints ask for, once the attributes they read are drawn."""
        for name in self.plan.multiple_of:
            if name not in self.ctx.version.dims and isinstance(self.ctx.dims.get(name), int):
                self._multiply(name)

    def _shape(self, name: str) -> None:
        ctx, param = self.ctx, self.params[name]
        domain = self._domain_of(param)
        if input_value_shaped(ctx.version, param) and not is_container(ctx.type_of(param.type)):
            return  # its values (drawn first, presence decided there) give its shape
        if name in ctx.fixed and ctx.shapes.get(name) is not None:
            return  # drawn with another input (the first operand of legacy or matmul broadcasting)
        if not self._present(param):
            ctx.shapes[name] = None
            ctx.omitted.add(name)
            return
        type_text = ctx.type_of(param.type)
        if is_container(type_text):
            lo, hi = self.plan.lengths.get(name, (0, MAX_LENGTH))
            if domain is not None and domain.count is not None:  # a sequence's element count
                lo, hi = dom.count_bounds(domain, self.env(), self.values(), lo, hi)
            hi = max(lo, min(hi, MAX_LENGTH))
            count = self.draw(integers(param.min_arity, param.min_arity + 2)) if param.variadic else 1
            layouts = [self._sequence_layout(domain, lo, hi) if domain is not None and is_tensor_sequence(type_text)
                       else draw_layout(self.draw, ctx, name, type_text, min_length=lo, max_length=hi)
                       for _ in range(count)]
            ctx.shapes[name] = layouts if param.variadic else layouts[0]
            return
        shape = self._drawn_shape(param)
        if shape is not None and domain is not None:
            shape = dom.with_empty_dim(self.draw, domain, self.env(), self.values(), shape)
        if param.variadic:
            if domain is not None and (domain.broadcast == "numpy" or domain.shapes):
                return  # the broadcast draw or the domain's shapes gave each value its shape
            count = self.draw(integers(param.min_arity, param.min_arity + 2))
            ctx.shapes[name] = [list(shape) if shape is not None else None for _ in range(count)]
            ctx.scratch.setdefault("arity", {})[name] = count
        else:
            ctx.shapes[name] = shape

    def _sequence_layout(self, domain: ValueDomain, low: int, high: int) -> list[list[int]]:
        """A sequence of tensors' element shapes from its domain: `rank` the elements' rank, `alike` one shape for
        all but for the axis it gives (None: all of it)."""
        env, values = self.env(), self.values()
        rank = dom.draw_rank(self.draw, domain, env, values, 0, MAX_CONTAINER_RANK) if domain.rank is not None \
            else None
        alike, axis = (True, dom.evaluate(domain.alike, env, values)) if domain.alike is not None else (None, None)
        if axis is not None and (isinstance(axis, bool) or not isinstance(axis, int)):
            raise dom.Undrawable(f"alike gives {axis!r}, not an axis")
        return sequence_shapes(self.draw, self.ctx, min_length=low, max_length=high, rank=rank, alike=alike,
                               axis=axis)

    def _one_of_shapes(self, domain: ValueDomain) -> Any:
        """One of the domain's `shapes`, picked and evaluated (a shape; for a variadic input, a list of them)."""
        picked = domain.shapes[self.draw(integers(0, len(domain.shapes) - 1))]
        return dom.evaluate(picked, self.env(), self.values())

    def _drawn_shape(self, param: Param) -> list[int] | None:
        ctx, domain, name = self.ctx, self._domain_of(param), param.name
        if domain is not None and domain.broadcast is not None:
            partner = {"numpy": self._broadcast_partner, "legacy": self._legacy_partner,
                       "matmul": self._matmul_partner}[domain.broadcast]
            shape = partner(param)
            if shape is not None:
                set_input_shape(ctx, name, shape)
            return shape
        if domain is not None and domain.shapes:
            shape = self._one_of_shapes(domain)
            if param.variadic:  # a variadic input's shapes: one per value
                shapes: Any = shape
                if not isinstance(shapes, list) or not all(_is_shape(s) for s in shapes) \
                        or len(shapes) < param.min_arity:
                    raise dom.Undrawable(f"shapes {shapes!r} of '{name}'")
                ctx.shapes[name] = [list(s) for s in shapes]
                ctx.scratch.setdefault("arity", {})[name] = len(shapes)
                ctx.fixed.add(name)
                return None
            if not _is_shape(shape):
                raise dom.Undrawable(f"shape {shape!r} of '{name}'")
            set_input_shape(ctx, name, shape)
            return list(shape)
        if param.shape is not None:
            return _signature_shape(param.shape, ctx.dims)
        if name in self.plan.vector_of:
            return self._vector_shape(name) if self.schedule.pull else None  # a hint's: after the derived dims
        if domain is not None and domain.rank is not None:
            rank = dom.draw_rank(self.draw, domain, self.env(), self.values(), 0, self.max_rank)
            ctx.fixed.add(name)
            return [self.draw(integers(1, ctx.max_side)) for _ in range(rank)]
        index = ctx.version.inputs.index(param)
        if index > 0 and ctx.first_shape() is not None and _has_shaped_input(ctx):
            return ctx.first_shape()  # elementwise partner of the first input
        rank = self.draw(integers(0, self.max_rank))
        return [self.draw(integers(1, ctx.max_side)) for _ in range(rank)]

    def _broadcast_partner(self, param: Param) -> list[int] | None:
        """A suffix of one drawn output shape (all of it half the time) with some dims set to 1; a variadic input's
        every value one (3 values in the simplest draw, else 2, 1 or 4)."""
        ctx, draw = self.ctx, self.draw
        out = ctx.scratch.get("broadcast")
        if out is None:
            out = ctx.scratch["broadcast"] = [draw(integers(1, ctx.max_side))
                                              for _ in range(draw(integers(0, MAX_BROADCAST_RANK)))]
        ctx.fixed.add(param.name)
        if param.variadic:
            count = draw(st.sampled_from([n for n in (3, 2, 1, 4) if n >= param.min_arity]))
            ctx.shapes[param.name] = [_partner(draw, out) for _ in range(count)]
            ctx.scratch.setdefault("arity", {})[param.name] = count
            return None
        return _partner(draw, out)

    def _legacy_partner(self, param: Param) -> list[int]:
        """B of opsets 1-6 (`broadcast: legacy`): one of the four forms the rule allows, drawn with A's shape and the
        `broadcast` and `axis` attributes (equal shapes, a 1-element B, B matching A's trailing dims, or B matching a
        run of A's dims that `axis` places and that stops short of the last dim, so a backend ignoring axis fails)."""
        ctx, draw = self.ctx, self.draw
        first = ctx.version.inputs[0].name
        form = draw(st.sampled_from(("axis", "suffix", "one", "same")))  # the most telling form is the simplest draw
        rank = draw(integers(2 if form == "axis" else 0, MAX_BROADCAST_RANK))
        a = [draw(integers(1, ctx.max_side)) for _ in range(rank)]
        if form == "same":
            b = list(a)
            if draw(BOOLEANS):
                ctx.attributes["broadcast"] = draw(st.sampled_from((0, 1)))
        else:
            ctx.attributes["broadcast"] = 1
            if form == "one":
                b = [1] * draw(integers(0, rank))
            elif form == "suffix":
                b = a[draw(integers(0, rank)):]
            else:
                start = draw(integers(0, rank - 2))
                b = a[start:draw(integers(start + 1, rank - 1))]
                ctx.attributes["axis"] = start - rank if draw(BOOLEANS) else start
        set_input_shape(ctx, first, a)
        ctx.fixed.add(param.name)
        return b

    def _matmul_partner(self, param: Param) -> list[int]:
        """B of numpy.matmul (`broadcast: matmul`), drawn with A (the first input): ranks 1 to 4 (1-D promoted;
        matrices most), a shared contracted dim, batch dims that broadcast (each side may hold a 1 or lack leading
        dims)."""
        ctx, draw = self.ctx, self.draw
        m, k, n = (draw(integers(1, ctx.max_side)) for _ in range(3))
        ra, rb = draw(st.sampled_from([1, 2, 2, 3, 4])), draw(st.sampled_from([1, 2, 2, 3, 4]))
        batch = [draw(integers(1, 3)) for _ in range(max(ra, rb) - 2)]

        def batch_of(rank: int) -> list[int]:
            own = batch[len(batch) - max(rank - 2, 0):] if rank > 2 else []
            return [1 if draw(BOOLEANS) and draw(BOOLEANS) else d for d in own]

        set_input_shape(ctx, ctx.version.inputs[0].name, [k] if ra == 1 else [*batch_of(ra), m, k])
        return [k] if rb == 1 else [*batch_of(rb), k, n]

    def _present(self, param: Param) -> bool:
        """Whether an input is given: an optional one at random, within its domain's `when` and `present`."""
        domain = self._domain_of(param)
        decided = self._presence(domain)
        return decided if decided is not None else not (param.optional and self.draw(BOOLEANS))

    def _presence(self, domain: ValueDomain | None) -> bool | None:
        """What a domain decides about presence: `present` (exactly where it holds; where it gives None, either),
        then `when` (never where it fails); None: the usual coin of an optional input or attribute."""
        if domain is None:
            return None
        if domain.present is not None:
            given = dom.evaluate(domain.present, self.env(), self.values())
            if given is not None:
                return bool(given)
        if domain.when is not None and not dom.evaluate(domain.when, self.env(), self.values()):
            return False
        return None

    def _domain_of(self, param: Param) -> ValueDomain | None:
        """An input's domain with its `integers`/`floats` keys applied for the element type it has in this draw."""
        if param.domain is None or (param.domain.integers is None and param.domain.floats is None
                                    and param.domain.strings is None):
            return param.domain
        if is_container(self.ctx.type_of(param.type)):
            return param.domain
        return dom.for_element(param.domain, self.ctx.element_of(param.type))

    def _hint(self, _: str) -> None:
        if self.hint.shapes is not None:
            self.hint.shapes(self.draw, self.ctx)
            self.ctx.fixed |= set(self.ctx.shapes)  # the hint owns every shape it leaves in place

    def _attr(self, name: str) -> None:
        ctx, attr, hint = self.ctx, self.ctx.version.attributes[name], self.hint
        if name in ctx.attributes:
            return  # set by a shape draw (a hint's, legacy broadcasting)
        if name in LEGACY_ATTRIBUTES and self.legacy:
            return  # legacy broadcasting draws them with B's shape, or leaves them off
        domain = attr.domain
        if name in hint.attributes:
            value = hint.attributes[name](self.draw, ctx)
        elif not hint.generic_attributes:
            return
        elif domain is not None:
            value = self._attribute_from_domain(attr)
        elif name in self.plan.attr_fixed:
            value = self.plan.attr_fixed[name]
            if value == thaw(attr.default) and not attr.required and self.draw(BOOLEANS):
                value = OMIT  # the default is the valid value: leaving it off is valid too
        elif attr.type == "tensor":
            value = _tensor_attribute(self.draw, ctx) if attr.required else OMIT
        else:
            bounded = _bounded(self.draw, attr, self.plan)
            # only a length formula reads the environment (`list_length`): building it costs more than the draw
            env = self.env() if bounded.length is not None else {}
            rank = len(ctx.first_shape())
            value = draw_attribute(self.draw, bounded, env, default_rank=rank or self.max_rank)
        if value is not OMIT:
            ctx.attributes[name] = value

    def _attribute_from_domain(self, attr: Attribute) -> Any:
        domain = dom.for_element(attr.domain, self.ctx.dtype)
        assert domain is not None
        env, values = self.env(), self.values()
        decided = self._presence(domain)
        if decided is False:
            return OMIT
        if domain.dtype_of is not None and attr.type != "tensor":
            return self._type_code(attr, domain, may_omit=decided is None and not attr.required)
        if decided is None and not attr.required and self.draw(BOOLEANS):
            return OMIT
        if attr.type == "tensor" and (domain.dtype_of is not None or domain.shapes):
            return self._tensor_from_domain(attr)
        given, value = dom.chosen(self.draw, domain, env, values)
        if given:
            return _typed(value, attr.type)
        if attr.type == "tensor":
            return _tensor_attribute(self.draw, self.ctx)
        if not dom.draws_values(domain):  # presence only: the value as the spec's allowed/range/length say
            bounded = replace(_bounded(self.draw, attr, self.plan), required=True)
            return draw_attribute(self.draw, bounded, env, default_rank=len(self.ctx.first_shape()) or self.max_rank)
        if attr.type in ("ints", "floats", "strings"):
            length = list_length(attr, env)
            if domain.count is not None:
                low, high = dom.count_bounds(domain, env, values, 0, 0)
                length = self.draw(integers(low, max(low, high)))
            if length is None:
                length = self.draw(integers(1, max(1, len(self.ctx.first_shape()) or self.max_rank)))
            return dom.draw_list(self.draw, domain, env, values, attr.type[:-1], length)
        return _typed(dom.draw_scalar(self.draw, domain, env, values, attr.type), attr.type)

    def _tensor_from_domain(self, attr: Attribute) -> np.ndarray:
        """A tensor attribute drawn as an input is: elements of `dtype_of`'s type (the cell's without it), its shape
        one of `shapes`, its values from the other keys (its `integers`/`floats`/`strings` keys by that type)."""
        assert attr.domain is not None
        ctx, env, values = self.ctx, self.env(), self.values()
        cell = ctx.type_bindings[attr.domain.dtype_of] if attr.domain.dtype_of is not None else ctx.dtype
        element = held_element(cell)
        domain = dom.for_element(attr.domain, element)
        assert domain is not None
        shape = None
        if domain.shapes:
            shape = self._one_of_shapes(domain)
            if not _is_shape(shape):
                raise dom.Undrawable(f"shape {shape!r} of attribute '{attr.name}'")
        return dom.draw_tensor(self.draw, domain, env, values, element, shape)

    def _type_code(self, attr: Attribute, domain: ValueDomain, *, may_omit: bool) -> Any:
        """An attribute naming the element type of `variable` (`dtype_of`): the cell's where the cell fixes the
        variable, else drawn among those it allows (and `dtype_where` keeps; the binding follows). It is left off at
        random only where its default says the same: a default naming that type, or, without one, the cell's type
        (EyeLike's output takes its input's type)."""
        ctx, variable = self.ctx, str(domain.dtype_of)
        if variable == self.plan.primary_type:  # the cell's type (a container's: what it holds), no draw
            element = ctx.type_bindings[variable]
        else:
            candidates = drawable_types(ctx.version, variable)
            if domain.dtype_where is not None:
                env, values = self.env(), self.values()
                candidates = [t for t in candidates if dom.evaluate(domain.dtype_where, {**env, CANDIDATE: t}, values)]
                if not candidates:
                    raise dom.Undrawable(f"no type of {variable} where {domain.dtype_where.text}")
            element = self.draw(st.sampled_from(candidates))
        code = code_or_name(element, attr.type)
        default = thaw(attr.default) if attr.default is not None or attr.default_expr is None else \
            dom.evaluate(attr.default_expr, self.env(), self.values())
        same = default == code if default is not None else element == ctx.dtype
        if may_omit and same and self.draw(BOOLEANS):
            ctx.type_bindings[variable] = element
            return OMIT
        ctx.type_bindings[variable] = element
        return code

    def _rederive(self, _: str) -> None:
        """The shapes made of derived dims, for a hint's draw (its dims came after the shapes)."""
        ctx = self.ctx
        for param in ctx.version.inputs:
            present = param.name not in ctx.omitted
            if not present or param.name in ctx.fixed or is_container(ctx.type_of(param.type)):
                continue
            if param.shape is not None:
                shape = _signature_shape(param.shape, ctx.dims)
                if shape is None:
                    raise dom.Undrawable(f"the shape of '{param.name}' needs a dim not drawn")
                old = ctx.shapes.get(param.name)
                ctx.shapes[param.name] = [shape] * len(old) if param.variadic and isinstance(old, list) else shape
            elif param.name in self.plan.vector_of:
                ctx.shapes[param.name] = self._vector_shape(param.name)

    def _vector_shape(self, name: str) -> list[int]:
        """An input the constraints give a length (`prod(X) == expr`): a vector of it."""
        length = dom.evaluate(self.plan.vector_of[name], self.env(), self.values())
        if not isinstance(length, int) or length < 1:
            raise dom.Undrawable(f"'{name}' of length {length!r}")
        return [length]

    def _values(self, name: str) -> None:
        ctx, param = self.ctx, self.params[name]
        if name in self.hint.values:
            array = self.hint.values[name](self.draw, ctx)
            self._take(param, array)
            return
        shape = ctx.shapes.get(name)
        type_text = ctx.type_of(param.type)
        if name in ctx.omitted:
            ctx.arrays[name] = None
            return
        if map_parts(type_text) is not None and param.domain is not None and not param.variadic \
                and (param.domain.keys is not None or param.domain.values is not None):
            ctx.arrays[name] = self._map_from_domain(param.domain, type_text)  # type: ignore[assignment]
            return
        if is_container(type_text):
            ctx.arrays[name] = [fill_container(self.draw, ctx, name, type_text, s) for s in shape or []] \
                if param.variadic else fill_container(self.draw, ctx, name, type_text, shape)
            return
        element = ctx.element_of(param.type)
        domain = self._domain_of(param)
        if domain is not None and input_value_shaped(ctx.version, param, domain):
            if not self._present(param):
                ctx.omitted.add(name)
                ctx.shapes[name] = ctx.arrays[name] = None
                return
            self._take(param, dom.draw_tensor(self.draw, domain, self.env(), self.values(), element, None))
            return
        if shape is None:
            ctx.arrays[name] = None
        elif domain is not None:
            env, values = self.env(), self.values()
            ctx.arrays[name] = [dom.draw_tensor(self.draw, domain, {**env, VALUE: k}, values, element, s)
                                for k, s in enumerate(shape)] \
                if param.variadic else dom.draw_tensor(self.draw, domain, env, values, element, shape)
        elif param.variadic:
            ctx.arrays[name] = [fill_array(self.draw(SEEDS), element, s) for s in shape]
        else:
            ctx.arrays[name] = fill_array(self.draw(SEEDS), element, shape)

    def _map_from_domain(self, domain: ValueDomain, type_text: str) -> dict[Any, Any]:
        """A map input from its domain: `count` entries (default 1 to 3), distinct keys from `keys` (by the key type:
        its `integers`/`strings` keys apply), values from `values` (scalars of the value type, which they carry)."""
        parts = map_parts(type_text)
        assert parts is not None
        key_type, value_type = parts
        env, values = self.env(), self.values()
        low, high = dom.count_bounds(domain, env, values, 1, MAX_LENGTH)
        count = int(self.draw(integers(low, max(low, high))))
        keys_domain = replace(dom.for_element(domain.keys, key_type) or ValueDomain(), unique=ALWAYS)
        if keys_domain.range is None and not keys_domain.one_of and keys_domain.among is None:
            keys_domain = replace(keys_domain, range=(Formula.from_tree(Const(-3)), Formula.from_tree(Const(12))))
        keys = dom.draw_list(self.draw, keys_domain, env, values, "string" if key_type == "string" else "int", count)
        element = tensor_element(value_type) or ""
        drawn = dom.draw_tensor(self.draw, dom.for_element(domain.values, element) or ValueDomain(), env, values,
                                element, [count])
        return {k: v if element == "string" else drawn.dtype.type(v) for k, v in zip(keys, drawn.tolist(), strict=True)}

    def _take(self, param: Param, array: Any) -> None:
        """An input's array drawn whole (a hint's, a value-giving domain's): its shape follows it."""
        ctx = self.ctx
        ctx.arrays[param.name] = array
        if param.variadic and isinstance(array, list):  # one value per position, each of its own shape
            ctx.shapes[param.name] = [shape_of(x) for x in array]
        elif array is None:
            ctx.shapes[param.name] = None
        elif isinstance(shape := shape_of(array), list):
            set_input_shape(ctx, param.name, shape)
        else:  # a map (or a sequence of maps) has no shape the formulas could read
            ctx.shapes[param.name] = shape
            ctx.fixed.add(param.name)


# ---- helpers ------------------------------------------------------------------------------------------------------

def _try(env: dict[str, Any], name: str, formula: Formula, values: dict[str, list[Any]]) -> bool:
    try:
        env[name] = formula.evaluate(env, values)
    except (FormulaError, Undecided, KeyError, TypeError):
        return False
    return True


def _is_shape(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in value)


def _typed(value: Any, attr_type: str) -> Any:
    """A formula's value as the attribute type holds it (an int where a float attribute wants a float)."""
    if attr_type == "float" and isinstance(value, int):
        return float(value)
    if attr_type == "floats" and isinstance(value, list):
        return [float(v) for v in value]
    if attr_type in ("ints", "floats", "strings") and isinstance(value, tuple):
        return list(value)
    return value


def positional_shapes(ctx: DrawContext) -> list[Any]:
    shapes: list[Any] = []
    for param in ctx.version.inputs:
        shape = ctx.shapes.get(param.name)
        if param.variadic and isinstance(shape, list):
            shapes.extend(shape)
        else:
            shapes.append(shape)
    return shapes


def _partner(draw: DrawFn, out: list[int]) -> list[int]:
    size = len(out) if draw(BOOLEANS) else draw(integers(0, len(out)))
    return [1 if d > 1 and draw(integers(0, 3)) == 0 else d for d in out[len(out) - size:]]


def _with_product(least: int, dims: list[int]) -> list[int]:
    """`dims` with the last dim scaled up (or a dim added to a scalar) so that the product is >= `least`."""
    total = int(np.prod(dims)) if dims else 1
    if total >= least or total == 0:  # an empty dim (`empty`, a 0..1 helper) is no product to grow
        return dims
    if not dims:
        return [least]
    factor = -(-least // total)
    return [*dims[:-1], dims[-1] * factor]


def _signature_shape(signature: tuple[str | int, ...], dims: dict[str, Any]) -> list[int] | None:
    shape: list[int] = []
    for item in signature:
        if isinstance(item, int):
            shape.append(item)
        elif item.startswith("*"):
            if not isinstance(dims.get(item[1:]), list):
                return None
            shape.extend(dims[item[1:]])
        elif isinstance(dims.get(item), int):
            shape.append(dims[item])
        else:
            return None  # a derived dim not computed yet
    return shape


def _has_shaped_input(ctx: DrawContext) -> bool:
    return any(ctx.shapes.get(p.name) is not None and not is_container(ctx.type_of(p.type))
               for p in ctx.version.inputs)


def _bounded(draw: DrawFn, attr: Attribute, plan: DrawPlan) -> Attribute:
    """`attr` narrowed by the plan's lower bound and list length (a default below the bound must be overridden)."""
    changes: dict[str, Any] = {}
    least = plan.attr_min.get(attr.name)
    if least is not None:
        lo, hi = attr.range if attr.range is not None else (None, None)
        lo = least if lo is None else max(lo, least)
        changes["range"] = (lo, hi)
        if attr.allowed is not None:
            changes["allowed"] = tuple(v for v in attr.allowed if v >= lo) or attr.allowed
        if not isinstance(attr.default, int | float) or attr.default < lo:
            changes["required"] = True
    bounds = plan.attr_length.get(attr.name)
    if bounds is not None and attr.length is None:
        lo_len, hi_len = bounds
        length = draw(integers(lo_len, max(lo_len, min(hi_len, lo_len + 3))))
        changes["length"] = Formula.from_tree(Const(length))
        if lo_len > len(attr.default or ()):
            changes["required"] = True
    return replace(attr, **changes) if changes else attr


def _tensor_attribute(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    rank = draw(integers(0, 3))
    shape = [draw(integers(1, ctx.max_side)) for _ in range(rank)]
    return fill_array(draw(SEEDS), ctx.dtype, shape)
