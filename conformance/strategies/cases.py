"""`op_cases(version, dtype)`: valid, complete cases of one op version, built from its schema.

Order of a draw: type bindings, then the items of `conformance.strategies.schedule` (dims, shapes, attributes,
values, each after what its domain reads; an op's hint where it keeps one) drawn by
`conformance.strategies.builder`; last, the shape formulas give the expected output shapes and every constraint is
checked (a failed draw is redrawn a few times inside the strategy, then rejected).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import reject
from hypothesis import strategies as st

from conformance.containers import shape_of, value_size, value_type
from conformance.strategies.attributes import DrawFn, as_node_value, node_values
from conformance.strategies.builder import Builder
from conformance.strategies.case import Case
from conformance.strategies.channels_last import lay_out, twin_of
from conformance.strategies.containers import layout_size
from conformance.strategies.context import DrawContext
from conformance.strategies.domains import Undrawable
from conformance.strategies.hint_table import NO_HINT, hint_for
from conformance.strategies.plan import plan_for
from conformance.strategies.schedule import schedule_for
from opset.cells import allowed_cells, cell_name, cell_type, drawable_cell, primary_param
from opset.dtypes import apply_relation, is_container
from opset.infer import infer_shapes, resolve_attributes, validate_attributes
from opset.model import OpVersion

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
            case = draw_once(draw, version, dtype, max_side=max_side, max_rank=max_rank,
                              max_elements=max_elements)
            if case is not None:
                return case
        reject()

    return build()


def draw_once(draw: DrawFn, version: OpVersion, dtype: str, *, max_side: int = 5, max_rank: int = 4,
              max_elements: int = 4096) -> Case | None:
    """One attempt at a case as `op_cases` makes one (its bounds by default), None where the draw was undrawable:
    for a caller drawing inside a strategy of its own (a test's `st.data()`)."""
    twin = twin_of(version)
    if twin is not None:
        return _draw_as_twin(draw, version, twin, dtype, max_side=max_side, max_rank=max_rank,
                             max_elements=max_elements)
    plan = plan_for(version)
    hint = hint_for(version)
    ctx = DrawContext(version, dtype, _bind_types(draw, version, dtype), max_side)
    schedule = schedule_for(version, plan, hint_shapes=hint.shapes is not None)
    builder = Builder(draw, ctx, plan, schedule, hint, max_rank)
    try:
        builder.run()
        count = builder.output_count()
    except Undrawable:
        return None
    return _finish(ctx, max_elements, count)


def _draw_as_twin(draw: DrawFn, version: OpVersion, twin: OpVersion, dtype: str, *, max_side: int, max_rank: int,
                  max_elements: int) -> Case | None:
    """A com.ms.internal.nhwc case: its twin's draw laid out channels last (`channels_last`), then the attributes
    the twin lacks from the nhwc op's own YAML."""
    twin_plan, twin_hint = plan_for(twin), hint_for(twin)
    twin_ctx = DrawContext(twin, dtype, _bind_types(draw, twin, dtype), max_side)
    twin_schedule = schedule_for(twin, twin_plan, hint_shapes=twin_hint.shapes is not None)
    twin_builder = Builder(draw, twin_ctx, twin_plan, twin_schedule, twin_hint, max_rank)
    bindings = _bind_types(draw, version, dtype)
    try:
        twin_builder.run()
        count = min(twin_builder.output_count(), len(version.outputs))
    except Undrawable:
        return None
    bindings.update({k: v for k, v in twin_ctx.type_bindings.items() if k in version.type_constraints})
    ctx = DrawContext(version, dtype, bindings, max_side)
    lay_out(twin_ctx, ctx)
    plan = plan_for(version)
    schedule = schedule_for(version, plan, hint_shapes=False)
    builder = Builder(draw, ctx, plan, schedule, NO_HINT, max_rank)
    builder.done = {item for item in schedule.order if item[0] != "attr" or item[1] in twin.attributes}
    try:
        builder.run()
    except Undrawable:
        return None
    return _finish(ctx, max_elements, count)


def _bind_types(draw: DrawFn, version: OpVersion, dtype: str) -> dict[str, str]:
    """Type variable -> cell name: the primary parameter's is the cell; a variable a type relation gives
    follows its source; the others keep the cell's type where they can, else are drawn (always drawn for an
    input whose domain says `any_type`, and among its `types` where it lists them)."""
    plan = plan_for(version)
    bindings: dict[str, str] = {}
    if plan.primary_type is not None:
        bindings[plan.primary_type] = dtype
    _follow_relations(version, bindings)
    for name, constraint in version.type_constraints.items():
        if name in bindings:
            continue
        cells = plan.drawable_types[name]
        choices = _type_choices(plan.type_choices.get(name, ()), bindings, cells)
        if choices:
            bindings[name] = draw(st.sampled_from(choices))
        elif dtype in cells and name not in plan.any_type:
            bindings[name] = dtype  # keep mixed-type ops in the cell's type where they can be
        elif cells:
            bindings[name] = draw(st.sampled_from(cells))
        else:
            bindings[name] = cell_name(constraint.types[0])
        _follow_relations(version, bindings)
    return bindings


def _type_choices(entries: tuple[str, ...], bindings: dict[str, str], cells: list[str]) -> list[str]:
    """A domain's `types` as the cells they stand for in this draw: an element type as itself, a type variable as
    what it is bound to (one not bound yet stands for nothing); only those the variable can be drawn as."""
    found = [bindings.get(entry, entry) for entry in entries]
    return [cell for cell in dict.fromkeys(found) if cell in cells]


def _follow_relations(version: OpVersion, bindings: dict[str, str]) -> None:
    """Bind every variable a type relation gives from bound ones (`T: element(S)` once S is bound)."""
    for _ in range(len(version.type_relations)):
        texts = {name: cell_type(cell) for name, cell in bindings.items()}
        found = {name: given for name, expr in version.type_relations.items()
                 if name not in bindings and (given := apply_relation(expr, texts)) is not None}
        if not found:
            return
        bindings.update({name: cell_name(given) for name, given in found.items()})


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
