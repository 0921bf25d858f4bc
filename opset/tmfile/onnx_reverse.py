"""The registry's `maps_to` read the other way: which Tengine node (with which attributes) an ai.onnx node is.

For an ONNX node the candidates are the Tengine mappings (each op's `maps_to` and its alternatives) whose target is
the node's op. A candidate's Tengine attributes are found from the mapping's own formulas, read backwards where
they are plain: an attribute formula that is a name (`group: group`) or a list of names (`kernel_shape: "[kernel_h,
kernel_w]"`) gives those attributes the ONNX attribute's values, a constant input's formula likewise its values, and
a `when` that is a conjunction of `name == constant` fixes those names. A fused activation is read the same way: a
`then` follow-up whose op is the node's only reader (Relu after Conv) is taken into the Tengine node, and its `when`
(`activation == 0`) fixes the attribute. What the formulas leave open comes from the mapping's `inverse` formulas
(Convolution's channel counts from its weight's shape, Reshape's re_shape from the ONNX shape's values), else the
attribute's default; attributes with a short `allowed` list still open are tried value by value.

Every candidate is then checked forwards, so only a Tengine node that converts back to exactly this ONNX node (and
chain) is taken: its `when` holds, each ONNX attribute is what the mapping computes (ONNX defaults for absent ones),
each constant input has the values the mapping writes (an int64 shape-like constant may differ where the Tengine
node's output shape is the ONNX node's), each reshaped input already has the shape the mapping would give it, the
follow-ups that hold are the nodes taken, and the registry's shape formulas give the ONNX node's output shapes with
no constraint broken.
"""

from __future__ import annotations

import itertools
from collections import ChainMap
from collections.abc import Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
import onnx
from onnx import helper, numpy_helper

from opset.formula import Formula, FormulaError, Undecided
from opset.formula.nodes import BoolOp, Compare, Const, IfExp, ListDisplay, Name, UnaryOp
from opset.infer import formula_environment, infer_shapes, resolve_attributes
from opset.model import FollowUp, MapsTo, OpVersion
from opset.registry import Registry

MAX_TRIED = 64  # combinations of still-open attributes with allowed values tried per candidate
_NP = {"float": np.float32, "int64": np.int64, "int32": np.int32, "bool": np.bool_}
Shape = list[Any]


@dataclass(frozen=True)
class Candidate:
    version: OpVersion  # the Tengine op's
    mapping: MapsTo


@dataclass
class Match:
    """A Tengine node for a chain of ONNX nodes: its attributes, inputs by the op's input names, outputs."""

    candidate: Candidate
    attributes: dict[str, Any]
    inputs: dict[str, list[str]]  # Tengine input name -> ONNX value names (a variadic one: several)
    outputs: list[str]
    nodes: list[int]  # the ONNX nodes it stands for (the first, then the follow-ups taken)


@dataclass
class Graph:
    """What the reverse reading needs of an ONNX graph: nodes, constants, shapes and types, readers."""

    nodes: Sequence[onnx.NodeProto]
    constants: Mapping[str, np.ndarray]
    shapes: Mapping[str, Shape]
    outputs: set[str]
    readers: dict[str, list[int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for k, node in enumerate(self.nodes):
            for name in node.input:
                if name:
                    self.readers.setdefault(name, []).append(k)

    def only_reader(self, value: str) -> int | None:
        readers = self.readers.get(value, [])
        return readers[0] if len(readers) == 1 and value not in self.outputs else None


def reversible(mapping: MapsTo) -> bool:
    """Whether ONNX -> .tmfile reads `mapping` backwards: one ai.onnx op per node, computed (not folded from shapes)."""
    return not (mapping.fold or mapping.per_output) and mapping.domain == "ai.onnx"


def candidates(registry: Registry, versions: Sequence[OpVersion]) -> dict[str, list[Candidate]]:
    """ONNX op -> the Tengine mappings that produce it, longest chains first (so Conv + Relu is one Convolution)."""
    found: dict[str, list[Candidate]] = {}
    for version in versions:
        m = version.maps_to
        if m is None:
            continue
        for mapping in (m, *m.alternatives):
            if not reversible(mapping):
                continue
            found.setdefault(mapping.op, []).append(Candidate(version, mapping))
    for listed in found.values():
        listed.sort(key=lambda c: -len(c.mapping.then))
    return found


def match(graph: Graph, k: int, candidate: Candidate, registry: Registry, opset: int) -> Match | None:
    """The Tengine node `candidate` makes of ONNX node `k` (and the follow-ups it takes), or None."""
    m, version = candidate.mapping, candidate.version
    node = graph.nodes[k]
    target = registry.try_resolve("ai.onnx", node.op_type, opset)
    if target is None or any(a not in target.attributes for a in m.attributes):
        return None
    shapes_in = [graph.shapes.get(n) for n in node.input]
    given = _onnx_attributes(node, target, shapes_in)
    defaults = _defaults(target, shapes_in)
    if any(name not in m.attributes and not _same(value, defaults.get(name)) for name, value in given.items()
           if value is not None):
        return None  # an ONNX attribute the mapping does not set, with another value than ONNX's default
    bound = _bind_inputs(node, version, m, graph)
    if bound is None:
        return None
    inputs, consts = bound
    solved: dict[str, Any] = {}
    if not _solve_all(m.attributes, given, solved) or not _solve_consts(m, consts, solved, graph):
        return None
    _solve_when(m.when, solved)
    target_names = {f"target_{k}": v for k, v in given.items()}
    for pos, value in enumerate(node.input):  # the target's constant inputs' values, by its own input names
        param = target.inputs[min(pos, len(target.inputs) - 1)].name if target.inputs else None
        if param is not None and value in graph.constants and graph.constants[value].size <= 4096:
            target_names.setdefault(f"target_{param}", graph.constants[value].reshape(-1).tolist())
    for chain, outputs, chain_solved, chain_inputs in _follow_up_options(graph, k, m, inputs, solved, registry,
                                                                          opset):
        shapes = _input_shapes(version, chain_inputs, graph)
        for name, formula in m.inverse.items():
            if name not in chain_solved:
                value = _try_evaluate(formula, version, shapes, {**chain_solved, **target_names},
                                      _values(chain_inputs, graph))
                if value is not None:
                    chain_solved[name] = value
        for attributes in _open_choices(version, chain_solved):
            if _checks(graph, k, candidate, attributes, chain_inputs, consts, chain, outputs, registry, opset):
                return Match(candidate, attributes, chain_inputs, outputs, chain)
    return None


_ATTRIBUTE_ONLY = object()


def _onnx_attributes(node: onnx.NodeProto, target: OpVersion, shapes: Sequence[Shape | None]) -> dict[str, Any]:
    given = {a.name: _plain(helper.get_attribute_value(a)) for a in node.attribute}
    try:
        resolved = resolve_attributes(target, given, [s for s in shapes])
    except (FormulaError, Undecided):
        resolved = dict(given)
    return {k: _plain(v) for k, v in resolved.items()}


def _defaults(target: OpVersion, shapes: Sequence[Shape | None]) -> dict[str, Any]:
    """The ONNX op's attributes as it takes them when the node gives none (default formulas over the shapes)."""
    try:
        return {k: _plain(v) for k, v in resolve_attributes(target, {}, list(shapes)).items()}
    except (FormulaError, Undecided):
        return {}


def _bind_inputs(node: onnx.NodeProto, version: OpVersion, m: MapsTo,
                 graph: Graph) -> tuple[dict[str, list[str]], dict[str, str]] | None:
    """The Tengine inputs (by name) and the constant inputs (by const name) the ONNX node's inputs stand for."""
    names = m.inputs if m.inputs is not None else tuple(p.name for p in version.inputs)
    params = {p.name: p for p in version.inputs}
    inputs: dict[str, list[str]] = {}
    consts: dict[str, str] = {}
    given = list(node.input)
    for pos, name in enumerate(names):
        value = given[pos] if pos < len(given) else ""
        if name == "":
            if value:
                return None
            continue
        if name in m.const_inputs:
            if not value or value not in graph.constants:
                return None
            consts[name] = value
            if name in params:  # an ONNX constant Tengine keeps as its own (ignored) input: Reshape's shape
                inputs[name] = [value]
            continue
        param = params.get(name)
        if param is None:
            return None
        if param.variadic:
            inputs[name] = [v for v in given[pos:] if v]
            break
        if not value:
            continue
        if name in inputs and inputs[name] != [value]:
            return None  # the mapping reads one input twice (SQUARE as Mul of A by A): both must be one value
        inputs[name] = [value]
    if len(given) > len(names) and not any(params.get(n) is not None and params[n].variadic for n in names):
        if any(given[len(names):]):
            return None
    for p in version.inputs:
        if not p.optional and not p.variadic and p.name not in inputs:
            return None
    return inputs, consts


def _solve_all(formulas: Mapping[str, Formula], given: Mapping[str, Any], solved: dict[str, Any]) -> bool:
    for target, formula in formulas.items():
        if not _invert(formula.tree, given.get(target), solved):
            return False
    return True


def _solve_consts(m: MapsTo, consts: Mapping[str, str], solved: dict[str, Any], graph: Graph) -> bool:
    return all(_invert(m.const_inputs[n].value.tree, graph.constants[v].reshape(-1).tolist(), solved)
               for n, v in consts.items())


def _invert(tree: Any, value: Any, solved: dict[str, Any]) -> bool:
    """Bind the names of a plain formula (a name, a list of plain formulas, the plain branch of a conditional) so that
    it gives `value`. Formulas of any other form bind nothing: the forward check decides in every case."""
    if value is None:
        return True
    if isinstance(tree, Name):  # a name met twice keeps its first value (the forward check tells a clash)
        solved.setdefault(tree.id, value)
        return True
    if isinstance(tree, IfExp):  # the branch that is a plain formula (the forward check decides the condition)
        plain = (Name, ListDisplay)
        branch = tree.orelse if isinstance(tree.orelse, plain) else tree.body if isinstance(tree.body, plain) else None
        return branch is None or _invert(branch, value, solved)
    if isinstance(tree, ListDisplay):
        values = list(value) if isinstance(value, (list, tuple, np.ndarray)) else None
        if values is None or len(values) != len(tree.elements):
            return True
        return all(_invert(e, v, solved) for e, v in zip(tree.elements, values, strict=True))
    return True


def _solve_when(formula: Formula | None, solved: dict[str, Any]) -> None:
    """`name == constant` terms of a conjunction fix those names (where not fixed already)."""
    if formula is None:
        return
    terms = formula.tree.values if isinstance(formula.tree, BoolOp) and formula.tree.op == "and" else (formula.tree,)
    for term in terms:
        if isinstance(term, Compare) and term.ops == ("==",) and isinstance(term.left, Name):
            right = term.comparators[0]
            constant: Any = _ATTRIBUTE_ONLY
            if isinstance(right, Const):
                constant = right.value
            elif isinstance(right, UnaryOp) and right.op == "-" and isinstance(right.operand, Const) and \
                    isinstance(right.operand.value, (int, float)):
                constant = -right.operand.value
            if constant is not _ATTRIBUTE_ONLY:
                solved.setdefault(term.left.id, constant)


def _follow_up_options(graph: Graph, k: int, m: MapsTo, inputs: dict[str, list[str]], solved: dict[str, Any],
                       registry: Registry, opset: int
                       ) -> list[tuple[list[int], list[str], dict[str, Any], dict[str, list[str]]]]:
    """Every way the ONNX nodes after node k can be the mapping's follow-ups (each taken where its op is the only
    reader's, or skipped where it has a `when`): the chain, its outputs, and what taking it fixes."""
    found: list[tuple[list[int], list[str], dict[str, Any], dict[str, list[str]]]] = []

    def walk(i: int, chain: list[int], outputs: list[str], fixed: dict[str, Any],
             bound: dict[str, list[str]]) -> None:
        if i == len(m.then):
            found.append((chain, outputs, fixed, bound))
            return
        then = m.then[i]
        nxt = graph.only_reader(outputs[0]) if len(outputs) == 1 else None
        node = graph.nodes[nxt] if nxt is not None else None
        taken_inputs = {name: list(v) for name, v in bound.items()}
        if node is not None and node.op_type == then.op and _follow_inputs_fit(node, then, outputs[0], taken_inputs,
                                                                                 graph):
            target = registry.try_resolve("ai.onnx", node.op_type, opset)
            if target is not None:
                attrs = _onnx_attributes(node, target, [graph.shapes.get(n) for n in node.input])
                taken = dict(fixed)
                _solve_all(then.attributes, attrs, taken)
                _solve_when(then.when, taken)
                assert nxt is not None
                walk(i + 1, [*chain, nxt], list(node.output), taken, taken_inputs)
        if then.when is not None:
            walk(i + 1, chain, outputs, fixed, bound)

    walk(0, [k], list(graph.nodes[k].output), dict(solved), {name: list(v) for name, v in inputs.items()})
    found.sort(key=lambda option: -len(option[0]))  # the longest chain first: a fused activation over a lone op
    return found


def _follow_inputs_fit(node: onnx.NodeProto, then: FollowUp, previous: str, inputs: dict[str, list[str]],
                       graph: Graph) -> bool:
    names = then.inputs if then.inputs is not None else ("_", *then.const_inputs)
    given = list(node.input)
    for pos, name in enumerate(names):
        value = given[pos] if pos < len(given) else ""
        if name == "_" and value != previous:
            return False
        if name in then.const_inputs and value not in graph.constants:
            return False
        if name not in ("_", "") and name not in then.const_inputs:
            if name in inputs and inputs[name] != [value]:
                return False
            inputs.setdefault(name, [value])
    return len(given) <= len(names)


def _open_choices(version: OpVersion, solved: dict[str, Any]) -> list[dict[str, Any]]:
    """The solved attributes, with the open ones that have a short allowed list tried value by value."""
    known = {k: v for k, v in solved.items() if k in version.attributes}
    open_names = [n for n, a in version.attributes.items() if n not in known and a.allowed is not None]
    choices = [list(version.attributes[n].allowed or ()) for n in open_names]
    combos: list[dict[str, Any]] = []
    for values in itertools.islice(itertools.product(*choices), MAX_TRIED):
        combos.append({**known, **{n: _plain(v) for n, v in zip(open_names, values, strict=True)}})
    return combos or [known]


def _checks(graph: Graph, k: int, candidate: Candidate, attributes: dict[str, Any], inputs: dict[str, list[str]],
            consts: dict[str, str], chain: list[int], outputs: list[str], registry: Registry, opset: int) -> bool:
    """Does the Tengine node convert forwards into exactly these ONNX nodes?"""
    version, m = candidate.version, candidate.mapping
    shapes = _input_shapes(version, inputs, graph)
    values = _values(inputs, graph)
    try:
        env = formula_environment(version, shapes, attributes)
        if m.when is not None and not m.when.evaluate(env, values):
            return False
        node = graph.nodes[k]
        target = registry.try_resolve("ai.onnx", node.op_type, opset)
        assert target is not None
        given = _onnx_attributes(node, target, [graph.shapes.get(n) for n in node.input])
        forward = {t: _plain(f.evaluate(env, values)) for t, f in m.attributes.items()}
        forward = canonical(node.op_type, {**given, **forward}, graph.shapes.get(node.input[0]))
        if any(not _same(forward[t], given.get(t)) for t in m.attributes):
            return False
        if not _consts_fit(m.const_inputs, consts, env, values, graph):
            return False
        for name, formula in m.reshape_inputs.items():
            current = graph.shapes.get(inputs[name][0]) if inputs.get(name) else None
            if current is None:
                continue
            wanted = [_plain(d) for d in formula.evaluate(env, values)]
            if wanted != current and not (
                    inputs[name][0] in graph.constants and [1] * (len(wanted) - len(current)) + current == wanted):
                return False  # a constant that broadcasts the same way once left-padded with 1s is stored as it is
        holding = [t for t in m.then if t.when is None or t.when.evaluate(env, values)]
        if len(holding) != len(chain) - 1 or any(graph.nodes[n].op_type != t.op for n, t in zip(chain[1:], holding,
                                                                                                strict=True)):
            return False
        for n, then in zip(chain[1:], holding, strict=True):
            follow = graph.nodes[n]
            target = registry.try_resolve("ai.onnx", follow.op_type, opset)
            assert target is not None
            given = _onnx_attributes(follow, target, [graph.shapes.get(x) for x in follow.input])
            if any(not _same(_plain(f.evaluate(env, values)), given.get(t)) for t, f in then.attributes.items()):
                return False
            names = then.inputs if then.inputs is not None else ("_", *then.const_inputs)
            follow_consts = {name: follow.input[pos] for pos, name in enumerate(names)
                             if name in then.const_inputs and pos < len(follow.input)}
            if not _consts_fit(then.const_inputs, follow_consts, env, values, graph):
                return False
        result = infer_shapes(version, shapes, attributes, values, all_values_known=True,
                              output_count=len(outputs))
    except (FormulaError, Undecided, ValueError, TypeError, IndexError):
        return False
    if result.problems:
        return False
    for out, shape in zip(outputs, result.outputs, strict=False):
        known = graph.shapes.get(out)
        if known is not None and shape is not None and [_plain(d) for d in shape] != known:
            return False
    return True


def canonical(op_type: str, attributes: dict[str, Any], shape: Shape | None) -> dict[str, Any]:
    """One ONNX form of a pool: end padding no window reaches dropped (it changes nothing)."""
    if op_type not in ("MaxPool", "AveragePool") or shape is None or "pads" not in attributes:
        return attributes
    pads, kernel = list(attributes["pads"]), list(attributes.get("kernel_shape") or [])
    if not pads or attributes.get("ceil_mode") or attributes.get("auto_pad", "NOTSET") != "NOTSET" or \
            any(d != 1 for d in attributes.get("dilations") or [1] * len(kernel)):
        return attributes
    return {**attributes, "pads": trimmed_pads(pads, kernel, list(attributes.get("strides") or [1] * len(kernel)),
                                               list(shape[2:]))}


def trimmed_pads(pads: list[int], kernel: list[int], strides: list[int], spatial: list[int]) -> list[int]:
    """`pads` with each end pad cut to what the last window (floor mode) reaches."""
    r = len(kernel)
    new = list(pads)
    for i in range(r):
        out = (spatial[i] + pads[i] + pads[i + r] - kernel[i]) // strides[i] + 1
        reached = (out - 1) * strides[i] + kernel[i] - pads[i] - spatial[i]
        new[i + r] = max(0, min(pads[i + r], reached))
    return new


def _consts_fit(specs: Mapping[str, Any], consts: Mapping[str, str], env: Mapping[str, Any],
                values: Mapping[str, list[Any]], graph: Graph) -> bool:
    for name, onnx_value in consts.items():
        spec = specs[name]
        want: np.ndarray = np.asarray(_plain(spec.value.evaluate(env, values)), dtype=_NP[spec.dtype])
        have = graph.constants[onnx_value]
        if want.size == have.size and np.allclose(want.reshape(-1).astype(np.float64),
                                                  have.reshape(-1).astype(np.float64), rtol=1e-6, atol=0):
            continue
        if spec.dtype != "int64":  # a shape-like constant may say the same shape otherwise (a -1 or 0 ONNX resolves)
            return False
    return True


def _input_shapes(version: OpVersion, inputs: Mapping[str, list[str]], graph: Graph) -> list[Any]:
    """The shapes of the Tengine node's inputs by position, as shape formulas take them (a variadic input's values
    one after the other; an omitted optional one None)."""
    shapes: list[Any] = []
    for p in version.inputs:
        names = inputs.get(p.name)
        if p.variadic:
            shapes.extend(graph.shapes.get(n) for n in names or [])
        else:
            shapes.append(graph.shapes.get(names[0]) if names else None)
    while shapes and shapes[-1] is None:
        shapes.pop()
    return shapes


def _values(inputs: Mapping[str, list[str]], graph: Graph) -> dict[str, list[Any]]:
    return {name: graph.constants[v[0]].reshape(-1).tolist() for name, v in inputs.items()
            if len(v) == 1 and v[0] in graph.constants and graph.constants[v[0]].size <= 4096}


def _try_evaluate(formula: Formula, version: OpVersion, shapes: list[Any], solved: dict[str, Any],
                  values: dict[str, list[Any]]) -> Any:
    extra = {k: v for k, v in solved.items() if k.startswith("target_")}  # the ONNX node's attributes
    try:
        # the environment evaluates its lets on demand: copying it would evaluate those the open attributes break
        lazy = cast("MutableMapping[str, Any]", formula_environment(version, shapes, solved))
        env: Mapping[str, Any] = ChainMap(extra, lazy)
        return _plain(formula.evaluate(env, values))
    except (FormulaError, Undecided, TypeError, ValueError):
        return None


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
        if not isinstance(a, (list, tuple)) or not isinstance(b, (list, tuple)) or len(a) != len(b):
            return False
        return all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) or isinstance(b, float):
        try:
            return bool(np.isclose(float(a), float(b), rtol=1e-6, atol=1e-12))
        except (TypeError, ValueError):
            return False
    return bool(a == b)


def _plain(value: Any) -> Any:
    if isinstance(value, bytes):
        return value.decode()
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, onnx.TensorProto):
        return numpy_helper.to_array(value).tolist()
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    if isinstance(value, np.generic):
        return value.item()
    try:
        return int(value) if int(value) == value else float(value)
    except (TypeError, ValueError):
        return value

