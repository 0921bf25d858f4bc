"""Hints of the ops with graph attributes: If, Loop, Scan (ai.onnx) and FlexAttention (ai.onnx.preview).

Each hint draws the whole case in its `shapes` step (kept in `ctx.scratch`): the graphs (from the body library
in `graph_bodies`), the node's input arrays, the values of the enclosing graph the graphs read (`ctx.outer`)
and the attributes that go with them. The draws aim at what real backends get wrong:

- If: both branches, with the same or (from opset 11) different output shapes, reading outer values;
- Loop: M present or absent, cond present or absent, zero iterations (M <= 0, cond false), a body that stops
  early through its condition (one iteration past the last true one), carried values that depend on the
  iteration number, scan outputs from carried values, the iteration number and outer values;
- Scan: several scan inputs along different axes and directions, zero-length sequences, state variables
  whose final value depends on the order of the elements, scan outputs along any axis, appended or prepended;
  opset 8's batches with their sequence lengths;
- FlexAttention: grouped heads, a scale, a softmax precision, score and probability modifier graphs.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import strategies as st

from conformance.strategies.attributes import OMIT, DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.graph_bodies import (
    PLAIN_ELEMENTS,
    GraphBuilder,
    accepts,
    constant_takes,
    numeric_elements,
    outer_values,
    small_array,
    steps,
)
from conformance.strategies.hints import OpHint, dims, set_input_shape
from conformance.strategies.memo import BOOLEANS, integers
from opset.cells import allowed_elements


def _scratch(name: str) -> Any:
    def value(draw: DrawFn, ctx: DrawContext) -> Any:
        return ctx.scratch["control"].get(name, OMIT)

    return value


def _arrays(name: str) -> Any:
    def value(draw: DrawFn, ctx: DrawContext) -> Any:
        return ctx.scratch["control"]["arrays"].get(name)

    return value


def _shape(draw: DrawFn, ctx: DrawContext, *, most: int = 2) -> list[int]:
    return dims(draw, draw(integers(0, most)), min(ctx.max_side, 3))


def _set_arity(ctx: DrawContext, count: int) -> None:
    """How many outputs the node names (its variadic output's count)."""
    ctx.scratch.setdefault("arity", {})[ctx.version.outputs[-1].name] = count


def _drawable(ctx: DrawContext, type_variable: str) -> list[str]:
    """The plain element types the variable allows (not complex nor ml_dtypes': one value of a type a backend
    lacks makes its whole cell unsupported; Scan's cells cover every type of V)."""
    return [e for e in allowed_elements(ctx.version, type_variable) if e in PLAIN_ELEMENTS]


# ---- If -----------------------------------------------------------------------------------------------------

def _branch(draw: DrawFn, name: str, opset: int, outputs: list[tuple[str, list[int]]],
            outer: dict[str, np.ndarray]) -> Any:
    g = GraphBuilder(name, opset, f"{name}_")
    for element, shape in outputs:
        readable = [n for n, x in outer.items() if x.dtype == np.dtype(_np(element)) and list(x.shape) == shape]
        if readable and (not constant_takes(opset, element) or draw(BOOLEANS)):
            value = g.op("Identity", [draw(st.sampled_from(readable))])
        else:
            value = g.const(small_array(draw, element, shape))
        if draw(BOOLEANS):
            value = steps(draw, g, value, element, shape, outer)
        g.output(value, element, shape)
    return g.build()


def _np(element: str) -> Any:
    from conformance.strategies.dtypes import numpy_dtype

    return numpy_dtype(element)


def _if_case(draw: DrawFn, ctx: DrawContext) -> None:
    opset = ctx.version.since
    count = draw(integers(1, 3))
    outputs = []
    for _ in range(count):
        # a type a Constant holds at this opset, or any type when an outer value gives it
        element = draw(st.sampled_from(_drawable(ctx, "V")))
        then_shape = _shape(draw, ctx)
        else_shape = then_shape if opset < 11 or draw(BOOLEANS) else _shape(draw, ctx)
        outputs.append((element, then_shape, else_shape))
    wanted = [(e, s) for e, a, b in outputs for s in (a, b)]
    outer = outer_values(draw, "outer_", wanted)
    for e, a, b in outputs:  # a type no Constant holds here comes from the enclosing graph
        for shape in (a, b):
            if not constant_takes(opset, e) and not any(x.dtype == _np(e) and list(x.shape) == shape
                                                         for x in outer.values()):
                outer[f"outer_{len(outer) + 100}"] = small_array(draw, e, shape)
    then_branch = _branch(draw, "then_branch", opset, [(e, a) for e, a, _ in outputs], outer)
    else_branch = _branch(draw, "else_branch", opset, [(e, b) for e, _, b in outputs], outer)
    cond = np.asarray(draw(BOOLEANS), dtype=np.bool_).reshape(draw(st.sampled_from([(), (1,)])))
    ctx.scratch["control"] = {"then_branch": then_branch, "else_branch": else_branch, "arrays": {"cond": cond}}
    ctx.shapes["cond"] = list(cond.shape)
    ctx.outer.update(outer)
    _set_arity(ctx, count)


IF_HINT = OpHint(shapes=_if_case, generic_attributes=False,
                 attributes={"then_branch": _scratch("then_branch"), "else_branch": _scratch("else_branch")},
                 values={"cond": _arrays("cond")})


# ---- Loop ---------------------------------------------------------------------------------------------------

def _loop_case(draw: DrawFn, ctx: DrawContext) -> None:
    version = ctx.version
    opset = version.since
    elements = numeric_elements(opset, _drawable(ctx, "V"))
    least = version.inputs[2].min_arity
    # choices are listed telling ones first (Hypothesis starts from the first): both inputs, a few iterations,
    # a body that stops before M, a scan output of the iteration number
    n = draw(integers(least, 3))
    k = draw(st.sampled_from([1, 2, 0] if n else [1, 2]))  # the node has at least one output
    has_m, has_cond = draw(st.sampled_from([(True, True), (True, False), (False, True), (True, True)]))
    trips = draw(st.sampled_from([3, 4, 2, 1, 0, -1, 5])) if has_m else None
    cond = draw(st.sampled_from([True, True, True, False])) if has_cond else None
    # a body that stops through its condition: required without M (or the loop never ends); without the cond
    # input the body's condition is ignored (onnx's text), so it always says go on there
    plain = has_m and draw(BOOLEANS)
    stop = draw(integers(0, 4)) if has_cond and not plain else None
    carried = [(draw(st.sampled_from(elements)), _shape(draw, ctx)) for _ in range(n)]
    outer = outer_values(draw, "outer_", carried)
    g = GraphBuilder("body", opset, "body_")
    iteration = g.input("int64", [])
    condition = g.input("bool", [])
    ins = [g.input(e, s) for e, s in carried]
    if stop is not None:
        condition_out = g.op("Less", [g.cast(iteration, "float"), g.const(np.asarray(stop, dtype=np.float32))])
    elif draw(BOOLEANS):
        condition_out = g.op("Identity", [condition])
    else:
        condition_out = g.op("Not", [g.op("Not", [condition])]) if accepts("Not", opset, "bool") else \
            g.op("Identity", [condition])
    outs = []
    for (element, shape), value in zip(carried, ins, strict=True):
        if draw(BOOLEANS) and (opset >= 7 or not shape) and accepts("Add", opset, element):
            value = g.op("Add", [value, g.cast(iteration, element)])  # depends on the iteration number
        outs.append(steps(draw, g, value, element, shape, outer))
    scans: list[tuple[str, str, list[int]]] = []
    for _ in range(k):
        source = draw(st.sampled_from(["iteration", "carried", "carried_in"] if n else ["iteration"]))
        if source == "iteration":
            element = draw(st.sampled_from(elements))
            scans.append((g.cast(iteration, element), element, []))
        else:
            j = draw(integers(0, n - 1))
            value = outs[j] if source == "carried" else ins[j]
            scans.append((value, *carried[j]))
    g.output(condition_out, "bool", [])
    for (element, shape), value in zip(carried, outs, strict=True):
        g.output(value, element, shape)
    for value, element, shape in scans:
        g.output(value, element, shape)
    # scalars: onnx's inference gives the body's condition input the cond input's shape, and the body declares []
    arrays: dict[str, Any] = {
        "M": None if trips is None else np.asarray(trips, dtype=np.int64),
        "cond": None if cond is None else np.asarray(cond, dtype=np.bool_),
        "v_initial": [small_array(draw, e, s) for e, s in carried],
    }
    ctx.scratch["control"] = {"body": g.build(), "arrays": arrays}
    for name in ("M", "cond"):
        ctx.shapes[name] = None if arrays[name] is None else list(arrays[name].shape)
        if arrays[name] is None:
            ctx.omitted.add(name)
    ctx.shapes["v_initial"] = [list(s) for _, s in carried]
    ctx.outer.update(outer)
    _set_arity(ctx, n + k)


LOOP_HINT = OpHint(shapes=_loop_case, generic_attributes=False, attributes={"body": _scratch("body")},
                   values={"M": _arrays("M"), "cond": _arrays("cond"), "v_initial": _arrays("v_initial")})


# ---- Scan ---------------------------------------------------------------------------------------------------

def _scan_body(draw: DrawFn, opset: int, element: str, states: list[list[int]], pieces: list[list[int]],
               k: int, outer: dict[str, np.ndarray]) -> tuple[Any, list[list[int]]]:
    """The body over `states` and scan elements of shapes `pieces`; each state's next value depends on the order
    of the elements (the last element, or the element minus the state), each scan output takes an element or a
    state. Returns the graph and the scan output element shapes."""
    g = GraphBuilder("body", opset, "body_")
    state_in = [g.input(element, s) for s in states]
    element_in = [g.input(element, s) for s in pieces]
    state_out = []
    for shape, value in zip(states, state_in, strict=True):
        same = [name for name, s in zip(element_in, pieces, strict=True) if s == shape]
        piece = draw(st.sampled_from(same))
        how = draw(st.sampled_from(["last", "minus", "plus"]))
        if how == "minus" and accepts("Sub", opset, element):
            value = g.op("Sub", [piece, value])
        elif how == "plus" and accepts("Add", opset, element):
            value = g.op("Add", [value, piece])
        else:
            value = g.op("Identity", [piece])
        if draw(BOOLEANS):
            value = steps(draw, g, value, element, shape, outer)
        state_out.append(value)
    outputs: list[tuple[str, list[int]]] = []
    for _ in range(k):
        if state_out and draw(BOOLEANS):
            i = draw(integers(0, len(state_out) - 1))
            outputs.append((state_out[i], states[i]))
        else:
            j = draw(integers(0, len(pieces) - 1))
            value = element_in[j]
            if draw(BOOLEANS):
                value = steps(draw, g, value, element, pieces[j], outer)
            outputs.append((value, pieces[j]))
    for value, shape in zip(state_out, states, strict=True):
        g.output(value, element, shape)
    for value, shape in outputs:
        g.output(value, element, shape)
    return g.build(), [s for _, s in outputs]


def _scan_case(draw: DrawFn, ctx: DrawContext) -> None:
    opset = ctx.version.since
    element = ctx.dtype
    m = draw(integers(1, 3))
    pieces = [_shape(draw, ctx) for _ in range(m)]
    n = draw(integers(0, 2))
    k = draw(integers(0 if n else 1, 3))
    states = [list(draw(st.sampled_from(pieces))) for _ in range(n)]
    length = draw(st.sampled_from([3, 2, 4, 1, 0]))  # telling ones first: Hypothesis starts from the first
    outer = outer_values(draw, "outer_", [(element, s) for s in pieces])
    body, out_pieces = _scan_body(draw, opset, element, states, pieces, k, outer)
    state_arrays = [small_array(draw, element, s) for s in states]
    control: dict[str, Any] = {"body": body, "num_scan_inputs": m}
    if opset == 8:
        batch = draw(integers(1, 3))
        state_arrays = [small_array(draw, element, [batch, *s]) for s in states]
        scan_arrays = [small_array(draw, element, [batch, length, *p]) for p in pieces]
        lens = np.asarray([draw(integers(0, length)) for _ in range(batch)], dtype=np.int64) \
            if draw(BOOLEANS) else None
        control["directions"] = [draw(st.sampled_from([1, 0])) for _ in range(m)] \
            if draw(st.sampled_from([True, True, False])) else OMIT
        control["arrays"] = {"sequence_lens": lens, "initial_state_and_scan_inputs": [*state_arrays, *scan_arrays]}
        ctx.shapes["sequence_lens"] = None if lens is None else [batch]
        if lens is None:
            ctx.omitted.add("sequence_lens")
    else:
        axes = [draw(integers(0, len(p))) for p in pieces]
        scan_arrays = [small_array(draw, element, [*p[:a], length, *p[a:]]) for p, a in zip(pieces, axes, strict=True)]
        written = [a - (len(p) + 1) if opset >= 11 and draw(BOOLEANS) else a
                   for p, a in zip(pieces, axes, strict=True)]
        out_axes = [draw(integers(0, len(p))) for p in out_pieces]
        written_out = [a - (len(p) + 1) if opset >= 11 and draw(BOOLEANS) else a
                       for p, a in zip(out_pieces, out_axes, strict=True)]
        control["scan_input_axes"] = written if any(written) or draw(BOOLEANS) else OMIT
        control["scan_input_directions"] = [draw(st.sampled_from([1, 0])) for _ in range(m)] \
            if draw(st.sampled_from([True, True, False])) else OMIT
        control["scan_output_axes"] = written_out if any(written_out) or (k and draw(BOOLEANS)) else OMIT
        control["scan_output_directions"] = [draw(st.sampled_from([1, 0])) for _ in range(k)] \
            if k and draw(st.sampled_from([True, True, False])) else OMIT
        control["arrays"] = {"initial_state_and_scan_inputs": [*state_arrays, *scan_arrays]}
    ctx.scratch["control"] = control
    ctx.shapes["initial_state_and_scan_inputs"] = [list(x.shape) for x in
                                                   control["arrays"]["initial_state_and_scan_inputs"]]
    ctx.outer.update(outer)
    _set_arity(ctx, n + k)


_SCAN_ATTRIBUTES = ("body", "num_scan_inputs", "directions", "scan_input_axes", "scan_input_directions",
                    "scan_output_axes", "scan_output_directions")
SCAN_HINTS = (
    OpHint(shapes=_scan_case, generic_attributes=False,
           attributes={name: _scratch(name) for name in _SCAN_ATTRIBUTES[:3]},
           values={"sequence_lens": _arrays("sequence_lens"),
                   "initial_state_and_scan_inputs": _arrays("initial_state_and_scan_inputs")}, until=8),
    OpHint(shapes=_scan_case, generic_attributes=False,
           attributes={name: _scratch(name) for name in (_SCAN_ATTRIBUTES[:2] + _SCAN_ATTRIBUTES[3:])},
           values={"initial_state_and_scan_inputs": _arrays("initial_state_and_scan_inputs")}, since=9),
)


# ---- FlexAttention ------------------------------------------------------------------------------------------

_PRECISIONS = {1: "float", 10: "float16", 11: "double"}  # softmax_precision -> element (bfloat16: numpy lacks it)
_MODIFIER_OPSET = 13  # the ai.onnx opset of a one-node ai.onnx.preview model (conformance.onnx_model)


def _modifier(draw: DrawFn, name: str, element: str, shape: list[int], outer: dict[str, np.ndarray], *,
              positive: bool) -> Any:
    """A modifier graph: scores or probabilities in, the same shape out, through a step or two (probabilities
    stay non-negative: scaled by a positive constant or taken as they are)."""
    g = GraphBuilder(name, _MODIFIER_OPSET, f"{name}_")
    value = g.input(element, shape)
    if positive:
        factor = g.const(small_array(draw, element, shape, positive=True))
        value = g.op("Mul", [value, factor]) if draw(BOOLEANS) else g.op("Abs", [value])
    else:
        value = steps(draw, g, value, element, shape, outer)
    g.output(value, element, shape)
    return g.build()


def _flex_case(draw: DrawFn, ctx: DrawContext) -> None:
    side = min(ctx.max_side, 4)
    # telling choices first (Hypothesis starts from them): grouped heads over two key/value heads, a precision of
    # its own
    batch, kv_heads, group = draw(integers(1, 2)), draw(st.sampled_from([2, 1])), draw(st.sampled_from([2, 1, 3]))
    length, keys, size, v_size = (draw(integers(1, side)) for _ in range(4))
    heads = kv_heads * group
    set_input_shape(ctx, "Q", [batch, heads, length, size])
    set_input_shape(ctx, "K", [batch, kv_heads, keys, size])
    set_input_shape(ctx, "V", [batch, kv_heads, keys, v_size])
    precision = draw(st.sampled_from([10, None, 11, 1, None]))
    work = _PRECISIONS[precision] if precision is not None else ("double" if ctx.dtype == "double" else "float")
    scores = [batch, heads, length, keys]
    outer = outer_values(draw, "outer_", [(work, scores)])
    control: dict[str, Any] = {
        "softmax_precision": precision if precision is not None else OMIT,
        "scale": draw(st.sampled_from([0.5, 0.25, 1.0, 2.0])) if draw(BOOLEANS) else OMIT,
        "score_mod": _modifier(draw, "score_mod", work, scores, outer, positive=False) if draw(BOOLEANS)
        else OMIT,
        "prob_mod": _modifier(draw, "prob_mod", work, scores, outer, positive=True) if draw(BOOLEANS)
        else OMIT,
    }
    ctx.scratch["control"] = control
    ctx.outer.update(outer if control["score_mod"] is not OMIT else {})


FLEX_ATTENTION_HINT = OpHint(shapes=_flex_case, generic_attributes=False,
                             attributes={name: _scratch(name)
                                         for name in ("softmax_precision", "scale", "score_mod", "prob_mod")})
