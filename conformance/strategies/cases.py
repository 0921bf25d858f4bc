"""`op_cases(version, dtype)`: valid, complete cases of one op version, built from its schema.

Order of a draw: type bindings, then ranks and named dims of the input signatures, then per-op hint
shapes, attributes, dims the constraints derive, input arrays; last, the shape formulas give the
expected output shapes and every constraint is checked (a failed draw is redrawn a few times inside
the strategy, then rejected).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
from hypothesis import reject
from hypothesis import strategies as st

from conformance.containers import shape_of, value_size, value_type
from conformance.strategies.attributes import OMIT, DrawFn, as_node_value, draw_attribute, node_values
from conformance.strategies.case import Case
from conformance.strategies.containers import MAX_LENGTH, draw_layout, fill_container, layout_size
from conformance.strategies.context import DrawContext
from conformance.strategies.dtypes import numpy_dtype
from conformance.strategies.hint_table import hint_for
from conformance.strategies.hints import OpHint
from conformance.strategies.memo import BOOLEANS, integers
from conformance.strategies.plan import DrawPlan, plan_for
from conformance.strategies.values import SEEDS, fill_array
from opset.cells import allowed_cells, cell_name, cell_type, drawable_cell, primary_param
from opset.dtypes import apply_relation, is_container
from opset.formula import Formula, FormulaError, Undecided
from opset.formula.nodes import Const
from opset.frozen import thaw
from opset.infer import bind_inputs, infer_shapes, resolve_attributes, validate_attributes
from opset.model import Attribute, OpVersion

ATTEMPTS = 12  # redraws inside the strategy before the example is rejected


def check_positive(name: str, value: int) -> None:
    if not isinstance(value, int) or value < 1:
        raise ValueError(f"{name}={value!r} must be an int >= 1")


def op_cases(version: OpVersion, dtype: str, *, max_side: int = 5, max_rank: int = 4,
             max_elements: int = 4096) -> st.SearchStrategy[Case]:
    """Strategy of valid cases of `version` in element type `dtype` (bounds checked up front)."""
    check_positive("max_side", max_side)
    check_positive("max_rank", max_rank)
    check_positive("max_elements", max_elements)
    primary = primary_param(version)
    if primary is None or dtype not in allowed_cells(version, primary.type):
        raise ValueError(f"{version.signature}: dtype {dtype} is not allowed by its type constraints")
    if not drawable_cell(dtype):
        raise ValueError(f"{version.signature}: dtype {dtype} cannot be drawn (numpy has no such type)")

    @st.composite
    def build(draw: DrawFn) -> Case:
        for _ in range(ATTEMPTS):
            case = _draw_once(draw, version, dtype, max_side=max_side, max_rank=max_rank,
                              max_elements=max_elements)
            if case is not None:
                return case
        reject()

    return build()


def _draw_once(draw: DrawFn, version: OpVersion, dtype: str, *, max_side: int, max_rank: int,
               max_elements: int) -> Case | None:
    plan = plan_for(version)
    hint = hint_for(version)
    ctx = DrawContext(version, dtype, _bind_types(draw, version, dtype), max_side)
    _draw_dims(draw, ctx, plan, hint, max_rank)
    _draw_signature_shapes(draw, ctx, plan, max_rank)
    if hint.shapes is not None:
        hint.shapes(draw, ctx)
        ctx.fixed |= set(ctx.shapes)  # the hint owns every shape it leaves in place
    if not _draw_attributes(draw, ctx, hint, max_rank):
        return None
    if not _apply_derived(ctx, plan):
        return None
    _draw_arrays(draw, ctx, hint)
    return _finish(ctx, max_elements, _output_count(draw, ctx, hint))


def _output_count(draw: DrawFn, ctx: DrawContext, hint: OpHint) -> int:
    """How many outputs the node names: every required one, and optional ones as a prefix (no gaps), so each
    optional output is checked too; a hint may fix the count where the op ties outputs to inputs."""
    outputs = ctx.version.outputs
    if any(p.variadic for p in outputs):
        return sum(1 for p in outputs if not p.optional)
    if hint.outputs is not None:
        return hint.outputs(draw, ctx)
    required = max((i + 1 for i, p in enumerate(outputs) if not p.optional), default=0)
    return int(draw(integers(required, len(outputs)))) if required < len(outputs) else len(outputs)


def _bind_types(draw: DrawFn, version: OpVersion, dtype: str) -> dict[str, str]:
    """Type variable -> cell name: the primary parameter's is the cell; a variable a type relation gives
    follows its source; the others keep the cell's type where they can, else are drawn."""
    plan = plan_for(version)
    bindings: dict[str, str] = {}
    if plan.primary_type is not None:
        bindings[plan.primary_type] = dtype
    _follow_relations(version, bindings)
    for name, constraint in version.type_constraints.items():
        if name in bindings:
            continue
        cells = plan.drawable_types[name]
        if dtype in cells:
            bindings[name] = dtype  # keep mixed-type ops in the cell's type where they can be
        elif cells:
            bindings[name] = draw(st.sampled_from(cells))
        else:
            bindings[name] = cell_name(constraint.types[0])
        _follow_relations(version, bindings)
    return bindings


def _follow_relations(version: OpVersion, bindings: dict[str, str]) -> None:
    """Bind every variable a type relation gives from bound ones (`T: element(S)` once S is bound)."""
    for _ in range(len(version.type_relations)):
        texts = {name: cell_type(cell) for name, cell in bindings.items()}
        found = {name: given for name, expr in version.type_relations.items()
                 if name not in bindings and (given := apply_relation(expr, texts)) is not None}
        if not found:
            return
        bindings.update({name: cell_name(given) for name, given in found.items()})


def _draw_dims(draw: DrawFn, ctx: DrawContext, plan: DrawPlan, hint: OpHint, max_rank: int) -> None:
    for name in plan.tuples:
        lo, hi = plan.rank_bounds.get(name, (hint.min_rank, max_rank))
        lo, hi = max(lo, hint.min_rank), min(hi, hint.max_rank or max_rank)
        rank = draw(integers(lo, max(lo, hi)))
        ctx.dims[name] = _with_product(plan.min_prod.get(name, 1),
                                       [draw(integers(1, ctx.max_side)) for _ in range(rank)])
    for name in plan.dims:
        ctx.dims[name] = draw(integers(1, ctx.max_side))
    for name, source in plan.same_tuple.items():
        if source in ctx.dims and source not in plan.same_tuple:
            ctx.dims[name] = list(ctx.dims[source])
    for param in ctx.version.outputs:
        if param.variadic:  # used where the formulas leave the count to the node (Split without lengths)
            ctx.scratch.setdefault("arity", {})[param.name] = draw(integers(param.min_arity, param.min_arity + 2))


def _with_product(least: int, dims: list[int]) -> list[int]:
    """`dims` with the last dim scaled up (or a dim added to a scalar) so that the product is >= `least`."""
    total = int(np.prod(dims)) if dims else 1
    if total >= least:
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
            shape.extend(dims[item[1:]])
        elif isinstance(dims.get(item), int):
            shape.append(dims[item])
        else:
            return None  # a derived dim not computed yet
    return shape


def _draw_signature_shapes(draw: DrawFn, ctx: DrawContext, plan: DrawPlan, max_rank: int) -> None:
    for index, param in enumerate(ctx.version.inputs):
        if param.optional and draw(BOOLEANS):
            ctx.shapes[param.name] = None
            ctx.omitted.add(param.name)
            continue
        type_text = ctx.type_of(param.type)
        if is_container(type_text):
            lo, hi = plan.lengths.get(param.name, (0, MAX_LENGTH))
            hi = max(lo, min(hi, MAX_LENGTH))
            layouts = [draw_layout(draw, ctx, param.name, type_text, min_length=lo, max_length=hi)
                       for _ in range(draw(integers(param.min_arity, param.min_arity + 2))
                                      if param.variadic else 1)]
            ctx.shapes[param.name] = layouts if param.variadic else layouts[0]
            continue
        if param.shape is not None:
            shape = _signature_shape(param.shape, ctx.dims)
        elif param.name in plan.vector_of:
            shape = None  # computed with the derived dims
        elif index > 0 and ctx.first_shape() is not None and _has_shaped_input(ctx):
            shape = ctx.first_shape()  # elementwise partner of the first input
        else:
            rank = draw(integers(0, max_rank))
            shape = [draw(integers(1, ctx.max_side)) for _ in range(rank)]
        if param.variadic:
            count = draw(integers(param.min_arity, param.min_arity + 2))
            ctx.shapes[param.name] = [list(shape) if shape is not None else None for _ in range(count)]
            ctx.scratch.setdefault("arity", {})[param.name] = count
        else:
            ctx.shapes[param.name] = shape


def _has_shaped_input(ctx: DrawContext) -> bool:
    return any(ctx.shapes.get(p.name) is not None and not is_container(ctx.type_of(p.type))
               for p in ctx.version.inputs)


def _environment(ctx: DrawContext) -> dict[str, Any]:
    shapes = _positional_shapes(ctx)
    env: dict[str, Any] = bind_inputs(ctx.version, shapes, [])
    env.update(ctx.dims)
    for name, attr in ctx.version.attributes.items():
        env.setdefault(name, ctx.attributes.get(name, thaw(attr.default)))
    for name, formula in ctx.version.lets.items():
        try:
            env[name] = formula.evaluate(env)
        except (FormulaError, Undecided, KeyError):
            continue
    return env


def _positional_shapes(ctx: DrawContext) -> list[Any]:
    shapes: list[Any] = []
    for param in ctx.version.inputs:
        shape = ctx.shapes.get(param.name)
        if param.variadic and isinstance(shape, list):
            shapes.extend(shape)
        else:
            shapes.append(shape)
    return shapes


def _draw_attributes(draw: DrawFn, ctx: DrawContext, hint: OpHint, max_rank: int) -> bool:
    rank = len(ctx.first_shape())
    plan = plan_for(ctx.version)
    for name, attr in ctx.version.attributes.items():
        if name in ctx.attributes:
            continue
        if name in hint.attributes:
            value = hint.attributes[name](draw, ctx)
        elif not hint.generic_attributes:
            continue
        elif name in plan.attr_fixed:
            value = plan.attr_fixed[name]
            if value == thaw(attr.default) and not attr.required and draw(BOOLEANS):
                value = OMIT  # the default is the valid value: leaving it off is valid too
        elif attr.type == "tensor":
            value = _tensor_attribute(draw, ctx) if attr.required else OMIT
        else:
            bounded = _bounded(draw, attr, plan)
            # only a length formula reads the environment (`list_length`): building it costs more than the draw
            env = _environment(ctx) if bounded.length is not None else {}
            value = draw_attribute(draw, bounded, env, default_rank=rank or max_rank)
        if value is not OMIT:
            ctx.attributes[name] = value
    return True


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


def _apply_derived(ctx: DrawContext, plan: DrawPlan) -> bool:
    """Compute the dims and vector inputs the constraints determine, then the shapes that use them."""
    for name, formula in plan.multiple_of.items():
        factor = _evaluate(formula, ctx)
        if not isinstance(factor, int) or factor < 1:
            return False
        ctx.dims[name] = ctx.dims[name] * factor
    pending = dict(plan.derived)
    for _ in range(len(pending) + 1):
        for name, formula in list(pending.items()):
            value = _evaluate(formula, ctx)
            if isinstance(value, int):
                ctx.dims[name] = value
                del pending[name]
    if any(isinstance(ctx.dims.get(name), int) and ctx.dims[name] < 1 for name in plan.derived):
        return False
    for param in ctx.version.inputs:
        present = param.name not in ctx.omitted
        if param.name in ctx.fixed or is_container(ctx.type_of(param.type)):
            continue  # a hint's shape, or a container's layout (a signature never shapes one)
        if param.shape is not None and present:
            shape = _signature_shape(param.shape, ctx.dims)
            if shape is None:
                return False
            old = ctx.shapes.get(param.name)
            ctx.shapes[param.name] = [shape] * len(old) if param.variadic and isinstance(old, list) else shape
        elif param.name in plan.vector_of and present:
            length = _evaluate(plan.vector_of[param.name], ctx)
            if not isinstance(length, int) or length < 1:
                return False
            ctx.shapes[param.name] = [length]
    return True


def _evaluate(formula: Formula, ctx: DrawContext) -> Any:
    try:
        return formula.evaluate(_environment(ctx))
    except (FormulaError, Undecided, KeyError):
        return None


def _draw_arrays(draw: DrawFn, ctx: DrawContext, hint: OpHint) -> None:
    for param in ctx.version.inputs:
        if param.name in hint.values:
            array = hint.values[param.name](draw, ctx)
            ctx.arrays[param.name] = array
            if param.variadic and isinstance(array, list):  # one value per position, each of its own shape
                ctx.shapes[param.name] = [shape_of(x) for x in array]
            else:
                ctx.shapes[param.name] = None if array is None else shape_of(array)
            continue
        shape = ctx.shapes.get(param.name)
        type_text = ctx.type_of(param.type)
        if is_container(type_text) and param.name not in ctx.omitted:
            ctx.arrays[param.name] = [fill_container(draw, ctx, param.name, type_text, s) for s in shape or []] \
                if param.variadic else fill_container(draw, ctx, param.name, type_text, shape)
            continue
        element = ctx.element_of(param.type)
        if shape is None or param.name in ctx.omitted:
            ctx.arrays[param.name] = None
        elif param.variadic:
            ctx.arrays[param.name] = [fill_array(draw(SEEDS), element, s) for s in shape]
        else:
            ctx.arrays[param.name] = fill_array(draw(SEEDS), element, shape)


def _finish(ctx: DrawContext, max_elements: int, output_count: int) -> Case | None:
    version = ctx.version
    inputs: list[Any] = []  # arrays, containers (conformance.containers), None
    names: list[str] = []
    for param in version.inputs:
        array = ctx.arrays.get(param.name)
        if param.variadic and isinstance(array, list):
            inputs.extend(array)
            names.extend(f"{param.name}_{i}" for i in range(len(array)))
        else:
            value = array if isinstance(array, np.ndarray) or is_container(ctx.type_of(param.type)) else None
            inputs.append(value)
            present = array is not None or (param.name in ctx.empty and param.name not in ctx.omitted)
            names.append(param.name if present else "")
    # trailing omitted inputs are left off the node, except the positions before a variadic input (Loop's cond)
    keep = next((i for i, p in enumerate(version.inputs) if p.variadic), 0)
    while len(names) > keep and names[-1] == "":
        names.pop()
        inputs.pop()
    if sum(value_size(x) for x in inputs) > max_elements:
        return None
    shapes = [shape_of(x) for x in inputs]
    values = {n: x.ravel().tolist() for n, x in zip(names, inputs, strict=True)
              if isinstance(x, np.ndarray) and x.dtype.kind in "iubO" and x.size <= 64}  # O: strings
    given = {name: as_node_value(value) for name, value in ctx.attributes.items()}
    if validate_attributes(version, given, shapes):
        return None
    if any(p.variadic for p in version.outputs):
        output_count = _variadic_output_count(ctx, shapes, given, values)
    types = [t if t is not None and "?" not in t else None for t in map(value_type, inputs)]  # for type_of(X)
    result = infer_shapes(version, shapes, given, values, output_count=output_count, input_types=types)
    if result.problems:
        return None
    expected = [_concrete(s) for s in result.outputs]
    if any(s is not None and layout_size(s) > max_elements for s in expected):
        return None
    variadic = [p for p in version.outputs if p.variadic]
    if variadic:  # one name per value of the variadic (last) output
        fixed = [p.name for p in version.outputs if not p.variadic]
        outputs = fixed + [f"{variadic[0].name}_{i}" for i in range(output_count - len(fixed))]
    else:
        outputs = [p.name for p in version.outputs[:output_count]]
    expected += [None] * (len(outputs) - len(expected))  # an undecided variadic output gives one None for all
    return Case(version=version, dtype=ctx.dtype, type_bindings=ctx.type_bindings,
                attributes=node_values(resolve_attributes(version, given, shapes)), node_attributes=given,
                inputs=inputs, input_names=names, output_names=outputs,
                expected_shapes=expected[:len(outputs)], values=values, outer=dict(ctx.outer))


def _variadic_output_count(ctx: DrawContext, shapes: list[Any], given: dict[str, Any],
                           values: dict[str, list[Any]]) -> int:
    """How many outputs the node gets when one is variadic: as many as its formula gives, or where the formula
    leaves that to the node (it names the output), the drawn count."""
    version = ctx.version
    variadic = [p for p in version.outputs if p.variadic]
    fixed = len(version.outputs) - 1
    tail = infer_shapes(version, shapes, given, values).outputs[fixed:]
    if tail == [None]:  # undecided: the formula needs the count (or input values nobody knows)
        return fixed + int(ctx.scratch["arity"][variadic[0].name])
    return fixed + len(tail)


def _concrete(shape: Any) -> Any:
    """A shape of ints, or a sequence's element shapes of ints; None otherwise."""
    if isinstance(shape, list) and all(isinstance(d, int) for d in shape):
        return [int(d) for d in shape]
    if isinstance(shape, list) and shape and all(_concrete(s) is not None and isinstance(s, list)
                                                 and all(isinstance(d, int) for d in s) for s in shape):
        return [[int(d) for d in s] for s in shape]
    return None


def numpy_of(element: str) -> np.dtype:
    return numpy_dtype(element)
