"""ai.onnx.preview.training::Gradient in the model runner: reverse-mode differentiation of the enclosing graph.

A Gradient node names tensors of the graph it sits in: `xs` (the variables to differentiate with respect to),
`zs` (other inputs the differentiated part reads) and `y` (the tensor to differentiate). Its inputs are the
values of xs then zs; output i is dy/dxs[i], shaped as xs[i]. No single-node kernel can compute that, so the
runner does, here:

1. the differentiated part is found by walking back from y through the nodes that produce its inputs, stopping
   at names in xs and zs; anything else it reads must be an initializer (a constant), or the node is refused:
   onnx says xs and zs determine y;
2. that part runs forward again (through the runner, so the same executor and located errors) with the
   Gradient node's input values bound to xs and zs;
3. gradients flow backwards from y with the vector-Jacobian products in `RULES`. A non-scalar y is
   differentiated as the sum of its elements (the seed is ones shaped as y): onnx's text does not say,
   its examples have scalar ys, and this is the one reading under which output i can have xs[i]'s shape;
4. a value that is not floating point carries no gradient (Shape, ArgMax, Equal, a Cast to int stop it). A
   node that passes a gradient-carrying input to a floating-point output and has no rule here is refused
   (`NotDifferentiable`), never guessed. An x the gradient never reaches gets zeros.

Kinks take the usual one-sided value: Relu's derivative at 0 is 0.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import onnx
from onnx import helper

GRADIENT_DOMAIN = "ai.onnx.preview.training"


class GradientError(Exception):
    """A Gradient node whose graph does not define its values (y unknown, not determined by xs and zs ...)."""


class NotDifferentiable(GradientError):
    """The path from xs to y goes through a node no rule here differentiates: not a wrong answer."""


def is_gradient(node: onnx.NodeProto) -> bool:
    return node.op_type == "Gradient" and node.domain == GRADIENT_DOMAIN


# Runs one node of the enclosing graph (by its index there) into the given values, as the runner runs nodes.
RunNode = Callable[[onnx.NodeProto, int, dict[str, Any]], None]


@dataclass(frozen=True, slots=True)
class EnclosingGraph:
    """What a Gradient node differentiates: the nodes of the graph (or function body) it sits in, and the names
    that are constants there (initializers) and so may be read without xs or zs naming them."""

    nodes: Sequence[onnx.NodeProto]
    constants: frozenset[str] = frozenset()


def gradient_outputs(node: onnx.NodeProto, inputs: Sequence[Any], graph: EnclosingGraph, values: Mapping[str, Any],
                     opset_imports: Mapping[str, int], run_node: RunNode) -> list[np.ndarray]:
    """The outputs of Gradient `node` (dy/dxs[i] each), given its input values; `values` are the values the
    enclosing graph holds so far (where the constants are read)."""
    attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
    if "xs" not in attrs or "y" not in attrs:
        raise GradientError("the attributes xs and y are required")
    xs = [_text(s) for s in attrs["xs"]]
    zs = [_text(s) for s in attrs.get("zs", [])]
    y = _text(attrs["y"])
    named = [*xs, *zs]
    if len(inputs) != len(named):
        raise GradientError(f"{len(inputs)} input(s) for {len(xs)} name(s) in xs and {len(zs)} in zs: the inputs "
                            "are the values of xs, then of zs")
    twice = sorted({n for n in named if named.count(n) > 1})
    if twice:
        raise GradientError(f"{', '.join(twice)}: named more than once in xs and zs")
    if y in node.output:
        raise GradientError(f"y '{y}' is an output of this Gradient node")
    bound: dict[str, Any] = {}
    for name, value in zip(named, inputs, strict=True):
        if value is None:
            raise GradientError(f"no value for '{name}' (its input is omitted)")
        bound[name] = value
    for k, x in enumerate(xs):
        if not _floating(bound[x]):
            raise GradientError(f"xs[{k}] '{x}' is {_kind(bound[x])}: gradients are taken with respect to "
                                "floating-point tensors")

    part, leaves = _differentiated_part(graph.nodes, y, set(named), graph.constants)
    own = {o for o in node.output if o}
    loops = [o for i in part for o in graph.nodes[i].output if o in own]
    if loops:
        raise GradientError(f"y '{y}' depends on '{loops[0]}', an output of this Gradient node")
    missing = sorted(n for n in leaves if n not in values)
    if missing:
        raise GradientError(f"initializer(s) {', '.join(missing)} have no value")
    forward: dict[str, Any] = {**{n: values[n] for n in leaves}, **bound}
    for index in part:
        run_node(graph.nodes[index], index, forward)
    if y not in forward:
        raise GradientError(f"y '{y}' was never computed")
    y_value = forward[y]
    if not _floating(y_value):
        raise GradientError(f"y '{y}' is {_kind(y_value)}: only a floating-point y has a gradient")

    active = _gradient_carriers(graph.nodes, part, set(xs), forward)
    grads: dict[str, np.ndarray] = {}
    if y in active:
        grads[y] = np.ones_like(y_value)
    for index in reversed(part):
        n = graph.nodes[index]
        g = grads.get(n.output[0]) if n.output and n.output[0] in active else None
        if g is None:
            continue
        step = _step(n, index, forward, opset_imports)
        try:
            found = RULES[_rule_key(n)].vjp(step, g)
        except (ValueError, TypeError, IndexError, ArithmeticError) as e:
            raise GradientError(f"the rule for {_label(n, index)} failed: {type(e).__name__}: {e}") from e
        for position, dx in enumerate(found):
            name = n.input[position] if position < len(n.input) else ""
            if dx is None or not name or name not in active:
                continue
            want = np.shape(forward[name])
            if np.shape(dx) != want:
                raise GradientError(f"the rule for {_label(n, index)} gave a gradient of shape {list(np.shape(dx))} "
                                    f"for input {position} of shape {list(want)} (a bug in {__name__})")
            grads[name] = grads[name] + dx if name in grads else np.asarray(dx)
    return [np.asarray(grads.get(x, np.zeros_like(bound[x])), dtype=np.asarray(bound[x]).dtype) for x in xs]


def _differentiated_part(nodes: Sequence[onnx.NodeProto], y: str, named: set[str],
                         constants: frozenset[str]) -> tuple[list[int], set[str]]:
    """The indices of the nodes between xs/zs and y in an order where producers come first, and the
    constants they read. Raises when y reads a name that neither xs, zs, a node nor an initializer gives."""
    produced_by: dict[str, int] = {}
    for i, n in enumerate(nodes):
        for out in n.output:
            if out:
                produced_by[out] = i
    order: list[int] = []
    leaves: set[str] = set()
    done: set[int] = set()
    on_stack: set[int] = set()

    def source(name: str) -> int | None:
        if name in named:
            return None
        if name in produced_by:
            return produced_by[name]
        if name in constants:
            leaves.add(name)
            return None
        what = f"y '{y}'" if name == y else f"y '{y}' depends on '{name}', which"
        raise GradientError(f"{what} is neither in xs or zs nor computed by a node or an initializer: xs and zs "
                            "must determine y" + ("" if name == y else " (name it in zs)"))

    first = source(y)
    stack: list[tuple[int, int]] = [] if first is None else [(first, 0)]
    if first is not None:
        on_stack.add(first)
    while stack:  # depth first, iteratively: a node is emitted after every node it reads
        index, k = stack.pop()
        reads = [x for x in nodes[index].input if x]
        if k < len(reads):
            stack.append((index, k + 1))
            producer = source(reads[k])
            if producer is None or producer in done:
                continue
            if producer in on_stack:
                raise GradientError(f"nodes {index} and {producer} depend on each other (a cycle)")
            on_stack.add(producer)
            stack.append((producer, 0))
            continue
        on_stack.discard(index)
        done.add(index)
        order.append(index)
    return order, leaves


def _gradient_carriers(nodes: Sequence[onnx.NodeProto], part: list[int], xs: set[str],
                       values: Mapping[str, Any]) -> set[str]:
    """The names a gradient flows through (floating-point values that depend on an x); refuses a node that
    would pass one on without a rule, or through an input its rule does not differentiate."""
    active = set(xs)
    for index in part:
        n = nodes[index]
        carried = [p for p, name in enumerate(n.input) if name and name in active]
        if not carried:
            continue
        outs = [o for o in n.output if o and _floating(values.get(o))]
        if not outs:
            continue  # integer or boolean results: piecewise constant, no gradient flows on
        rule = RULES.get(_rule_key(n))
        if rule is None:
            raise NotDifferentiable(f"Gradient through {_label(n, index)} is not defined here (the differentiable "
                                    f"ops: {', '.join(sorted(k[1] for k in RULES))})")
        blocked = [p for p in carried if rule.positions is not None and p not in rule.positions]
        if blocked:
            raise NotDifferentiable(f"Gradient through {_label(n, index)} with respect to its input {blocked[0]} "
                                    f"('{n.input[blocked[0]]}') is not defined here: {rule.fixed}")
        active.update(outs)
    return active


# --- the vector-Jacobian products -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Step:
    """A node of the differentiated part with its forward values and resolved attributes."""

    node: onnx.NodeProto
    inputs: list[Any]  # None where an optional input is omitted
    output: np.ndarray  # output 0
    attrs: dict[str, Any]  # every attribute, defaults from the registry
    since: int  # the version of the op the node resolves to


Grads = list[np.ndarray | None]  # one per input position: the gradient of y with respect to it


@dataclass(frozen=True, slots=True)
class Rule:
    vjp: Callable[[Step, np.ndarray], Grads]
    positions: tuple[int, ...] | None = None  # the inputs it differentiates (None: all)
    fixed: str = ""  # why the other inputs are not differentiated


def unbroadcast(g: np.ndarray, shape: Sequence[int]) -> np.ndarray:
    """`g` (shaped as a broadcast result) summed back to `shape`: the VJP of numpy broadcasting."""
    g = np.asarray(g)
    extra = g.ndim - len(shape)
    if extra > 0:
        g = g.sum(axis=tuple(range(extra)))
    axes = tuple(i for i, n in enumerate(shape) if n == 1 and g.shape[i] != 1)
    if axes:
        g = g.sum(axis=axes, keepdims=True)
    return np.asarray(g).reshape(tuple(shape))


def _shape(x: Any) -> tuple[int, ...]:
    return tuple(np.shape(x))


def _binary(da: Callable[[Step, np.ndarray], np.ndarray],
            db: Callable[[Step, np.ndarray], np.ndarray]) -> Callable[[Step, np.ndarray], Grads]:
    def vjp(s: Step, g: np.ndarray) -> Grads:
        a, b = s.inputs[0], s.inputs[1]
        return [unbroadcast(da(s, g), _shape(a)), unbroadcast(db(s, g), _shape(b))]
    return vjp


def _unary(f: Callable[[Step, np.ndarray], np.ndarray]) -> Callable[[Step, np.ndarray], Grads]:
    def vjp(s: Step, g: np.ndarray) -> Grads:
        return [np.asarray(f(s, g)).reshape(_shape(s.inputs[0]))]
    return vjp


def _as(value: Any, like: np.ndarray) -> np.ndarray:
    return np.asarray(value, dtype=np.asarray(like).dtype)


def _pow(s: Step, g: np.ndarray) -> Grads:
    x = np.asarray(s.inputs[0])
    e = _as(s.inputs[1], x)
    with np.errstate(divide="ignore", invalid="ignore"):
        dx = g * e * np.power(x, e - np.ones((), x.dtype))
    return [unbroadcast(dx, x.shape), None]


def _matmul(s: Step, g: np.ndarray) -> Grads:
    a, b = np.asarray(s.inputs[0]), np.asarray(s.inputs[1])
    a2 = a[None, :] if a.ndim == 1 else a
    b2 = b[:, None] if b.ndim == 1 else b
    g2 = np.asarray(g)  # the result's shape with the axes a 1-D operand dropped put back
    if a.ndim == 1 and b.ndim == 1:
        g2 = g2.reshape(1, 1)
    elif a.ndim == 1:
        g2 = np.expand_dims(g2, -2)
    elif b.ndim == 1:
        g2 = np.expand_dims(g2, -1)
    da = np.matmul(g2, np.swapaxes(b2, -1, -2))
    db = np.matmul(np.swapaxes(a2, -1, -2), g2)
    return [unbroadcast(da, a2.shape).reshape(a.shape), unbroadcast(db, b2.shape).reshape(b.shape)]


def _gemm(s: Step, g: np.ndarray) -> Grads:
    a, b = np.asarray(s.inputs[0]), np.asarray(s.inputs[1])
    c = s.inputs[2] if len(s.inputs) > 2 else None
    alpha, beta = _as(s.attrs["alpha"], g), _as(s.attrs["beta"], g)
    a2 = a.T if s.attrs["transA"] else a
    b2 = b.T if s.attrs["transB"] else b
    da = alpha * (g @ b2.T)
    db = alpha * (a2.T @ g)
    return [da.T if s.attrs["transA"] else da, db.T if s.attrs["transB"] else db,
            None if c is None else unbroadcast(beta * g, _shape(c))]


def _reduce_axes(s: Step) -> tuple[int, ...] | None:
    """The reduced axes (None: the reduction is the identity, as noop_with_empty_axes makes it)."""
    rank = np.ndim(s.inputs[0])
    if "axes" in s.attrs:  # before the axes became an input
        given = s.attrs["axes"]
    else:
        given = s.inputs[1] if len(s.inputs) > 1 else None
    axes = [] if given is None else [int(a) for a in np.asarray(given).reshape(-1)]
    if not axes:
        return None if s.attrs.get("noop_with_empty_axes") else tuple(range(rank))
    return tuple(sorted(a % rank if rank else 0 for a in axes))


def _reduce(mean: bool) -> Callable[[Step, np.ndarray], Grads]:
    def vjp(s: Step, g: np.ndarray) -> Grads:
        x = np.asarray(s.inputs[0])
        axes = _reduce_axes(s)
        if axes is None:
            return [np.asarray(g).reshape(x.shape), None]
        if not s.attrs["keepdims"]:
            g = np.expand_dims(g, axes)
        dx = np.array(np.broadcast_to(g, x.shape))
        if mean:
            count = int(np.prod([x.shape[a] for a in axes], dtype=np.int64))
            dx = dx / _as(max(count, 1), dx)
        return [dx.astype(x.dtype, copy=False), None]
    return vjp


def _transpose(s: Step, g: np.ndarray) -> Grads:
    rank = np.ndim(s.inputs[0])
    perm = s.attrs.get("perm")
    order = list(range(rank))[::-1] if perm is None or len(perm) == 0 else [int(p) for p in perm]
    return [np.transpose(g, np.argsort(order))]


def _softmax_groups(s: Step, g: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """Output and gradient arranged so the softmax runs along one axis: before opset 13 the input is
    coerced to 2-D at `axis` (the softmax runs over the flattened trailing dims); from 13 along `axis`."""
    y = np.asarray(s.output)
    rank = y.ndim
    axis = int(s.attrs["axis"])
    axis = axis + rank if axis < 0 else axis
    if s.since < 13:
        rows = int(np.prod(y.shape[:axis], dtype=np.int64))
        return y.reshape(rows, -1), np.asarray(g).reshape(rows, -1), 1
    return y, np.asarray(g), axis


def _softmax(s: Step, g: np.ndarray) -> Grads:
    y, g2, axis = _softmax_groups(s, g)
    dx = y * (g2 - np.sum(g2 * y, axis=axis, keepdims=True))
    return [dx.reshape(_shape(s.inputs[0]))]


def _log_softmax(s: Step, g: np.ndarray) -> Grads:
    y, g2, axis = _softmax_groups(s, g)
    dx = g2 - np.exp(y) * np.sum(g2, axis=axis, keepdims=True)
    return [dx.reshape(_shape(s.inputs[0]))]


def _concat(s: Step, g: np.ndarray) -> Grads:
    rank = np.ndim(s.output)
    axis = int(s.attrs["axis"])
    axis = axis + rank if axis < 0 else axis
    bounds = np.cumsum([np.shape(x)[axis] for x in s.inputs])[:-1]
    return list(np.split(np.asarray(g), bounds, axis=axis))


def _where(s: Step, g: np.ndarray) -> Grads:
    cond = np.asarray(s.inputs[0], dtype=bool)
    zero = np.zeros((), np.asarray(g).dtype)
    return [None, unbroadcast(np.where(cond, g, zero), _shape(s.inputs[1])),
            unbroadcast(np.where(cond, zero, g), _shape(s.inputs[2]))]


def _reshaped(s: Step, g: np.ndarray) -> Grads:  # Reshape, Flatten, Squeeze, Unsqueeze: the data input only
    return [np.asarray(g).reshape(_shape(s.inputs[0]))] + [None] * (len(s.inputs) - 1)


def _sum(s: Step, g: np.ndarray) -> Grads:
    return [unbroadcast(g, _shape(x)) for x in s.inputs]


_X = (0,)
_DATA_ONLY = "only its data input carries a gradient here"
RULES: dict[tuple[str, str], Rule] = {("ai.onnx", op): rule for op, rule in {
    "Add": Rule(_binary(lambda s, g: g, lambda s, g: g)),
    "Sub": Rule(_binary(lambda s, g: g, lambda s, g: -g)),
    "Mul": Rule(_binary(lambda s, g: g * s.inputs[1], lambda s, g: g * s.inputs[0])),
    "Div": Rule(_binary(lambda s, g: g / s.inputs[1], lambda s, g: -g * s.inputs[0] / (s.inputs[1] * s.inputs[1]))),
    "Sum": Rule(_sum),
    "Neg": Rule(_unary(lambda s, g: -g)),
    "Identity": Rule(_unary(lambda s, g: g)),
    "Relu": Rule(_unary(lambda s, g: g * (np.asarray(s.inputs[0]) > 0))),
    "Sigmoid": Rule(_unary(lambda s, g: g * s.output * (np.ones((), s.output.dtype) - s.output))),
    "Tanh": Rule(_unary(lambda s, g: g * (np.ones((), s.output.dtype) - s.output * s.output))),
    "Exp": Rule(_unary(lambda s, g: g * s.output)),
    "Log": Rule(_unary(lambda s, g: g / s.inputs[0])),
    "Sqrt": Rule(_unary(lambda s, g: g / (_as(2, s.output) * s.output))),
    "Reciprocal": Rule(_unary(lambda s, g: -g * s.output * s.output)),
    "Pow": Rule(_pow, _X, "the exponent must not depend on xs (only a base carries a gradient here)"),
    "MatMul": Rule(_matmul),
    "Gemm": Rule(_gemm),
    "ReduceSum": Rule(_reduce(mean=False), _X, _DATA_ONLY),
    "ReduceMean": Rule(_reduce(mean=True), _X, _DATA_ONLY),
    "Softmax": Rule(_softmax),
    "LogSoftmax": Rule(_log_softmax),
    "Transpose": Rule(_transpose),
    "Reshape": Rule(_reshaped, _X, _DATA_ONLY),
    "Flatten": Rule(_reshaped, _X, _DATA_ONLY),
    "Squeeze": Rule(_reshaped, _X, _DATA_ONLY),
    "Unsqueeze": Rule(_reshaped, _X, _DATA_ONLY),
    "Expand": Rule(lambda s, g: [unbroadcast(g, _shape(s.inputs[0])), None], _X, _DATA_ONLY),
    "Concat": Rule(_concat),
    "Where": Rule(_where, (1, 2), "its condition is boolean"),
    "Cast": Rule(lambda s, g: [np.asarray(g).astype(np.asarray(s.inputs[0]).dtype)]),
}.items()}


def differentiable_ops() -> list[str]:
    """The ops a gradient flows through here, by name."""
    return sorted(op for _, op in RULES)


# --- helpers ----------------------------------------------------------------------------------------------


def _rule_key(node: onnx.NodeProto) -> tuple[str, str]:
    return (node.domain or "ai.onnx", node.op_type)


def _step(node: onnx.NodeProto, index: int, values: Mapping[str, Any], opset_imports: Mapping[str, int]) -> Step:
    from conformance.onnx_model import node_attributes, registry_domain
    from conformance.registry import current_registry
    from conformance.strategies.attributes import node_values
    from opset.errors import ResolutionError
    from opset.infer import resolve_attributes

    inputs = [values[n] if n else None for n in node.input]
    opset = opset_imports.get(node.domain, opset_imports.get("ai.onnx") if node.domain == "" else None)
    version = None
    if opset is not None:
        try:
            version = current_registry().try_resolve(registry_domain(node.domain), node.op_type, opset)
        except ResolutionError as e:
            raise NotDifferentiable(f"{_label(node, index)}: {e}") from e
    if version is None:
        raise NotDifferentiable(f"{_label(node, index)}: no version of the op at the model's opset imports")
    shapes = [list(np.shape(x)) if x is not None else None for x in inputs]
    attrs = node_values(resolve_attributes(version, node_attributes(node), shapes))
    return Step(node, inputs, np.asarray(values[node.output[0]]), attrs, version.since)


def _label(node: onnx.NodeProto, index: int) -> str:
    return f"node {index}" + (f" '{node.name}'" if node.name else "") + f" ({node.domain or 'ai.onnx'}::{node.op_type})"


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _floating(value: Any) -> bool:
    return isinstance(value, np.ndarray | np.generic) and np.issubdtype(np.asarray(value).dtype, np.floating)


def _kind(value: Any) -> str:
    if isinstance(value, np.ndarray | np.generic):
        return f"of element type {np.asarray(value).dtype}"
    return f"a {type(value).__name__}, not a tensor"
