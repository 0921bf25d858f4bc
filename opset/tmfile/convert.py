"""A Tengine model as an ai.onnx model, through each op's `maps_to` in the registry: no per-op code here.

For every compute node of the tengine-domain view (`onnx_view`) the converter takes the first mapping of the op
whose `when` holds for the node's attributes and input shapes (the mapping, then its `alternatives` in order),
evaluates its attribute and `const_inputs` formulas, wires the node's inputs in the target's order (reshaped where
`reshape_inputs` says), and appends the `then` follow-ups whose `when` holds (a fused activation, or the rest of a
small subgraph: a follow-up's `inputs` may name the op's own inputs). A mapping with `per_output` applies its
target to each output (Caffe's Split, whose outputs are copies); a `fold` mapping's output depends on shapes only
and is computed by the reference kernels (through `opset.graph.eager`'s evaluator) into a constant. A mapping with
`exact: false` and no `when` does not say where it holds, so it is not used. A node no mapping serves is listed
with the YAML's reason (`unmapped` of the mapping or the version, else its `note`), and no model is written.

Where a file declares an output by another reading of its op (Tengine 1.x's [N, K, 1, 1] Flatten), the converted
node computes the registry's shape and a Reshape gives the declared one, so the rest of the graph sees the shapes
the file states. The model imports ai.onnx at the highest opset its mappings name; a target whose version at that
opset does not take the attributes its mapping sets is reported like an unmapped node. Mapping formulas may read a
constant input's values (`value()`). Constant subgraphs are folded, inverse Transposes (an NHWC model's, around each
layout-dependent op) cancelled, unused initializers dropped (`onnx_passes`), and with `keep_types` the float16 and
quantised constants stay as stored (`keep_types`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import onnx
from onnx import helper, numpy_helper

from opset.formula import Formula, FormulaError, Undecided
from opset.infer import formula_environment
from opset.model import ConstInput, FollowUp, MapsTo, OpVersion
from opset.registry import Registry
from opset.tmfile.model import Model
from opset.tmfile.onnx_passes import tidy
from opset.tmfile.onnx_view import OnnxView, ViewError, to_onnx
from opset.tmfile.params import tengine_versions

MIN_OPSET = 13
_CONST_TYPES = {"float": np.float32, "int64": np.int64, "int32": np.int32, "bool": np.bool_}


@dataclass(frozen=True)
class Unmapped:
    node_index: int  # the Tengine node's index in the file
    node_name: str
    op: str
    reason: str

    def __str__(self) -> str:
        return f"node {self.node_index} '{self.node_name}' ({self.op}): {self.reason}"


@dataclass(frozen=True)
class Conversion:
    model: onnx.ModelProto | None  # None when some node has no mapping
    unmapped: tuple[Unmapped, ...]
    opset: int


@dataclass(frozen=True)
class _Planned:
    version: OpVersion  # the tengine op's
    mapping: MapsTo
    env: Mapping[str, Any]
    values: Mapping[str, list[Any]]  # the values of the node's constant inputs, by input name (`value()`)


@dataclass
class _Shapes:
    """What the validator knows of the view's values: the shape each carries on (declared where a reading gave it)
    and the shape the registry's formulas gave."""

    facts: dict[str, list[Any]]
    inferred: dict[str, list[Any]]
    types: dict[str, str] = field(default_factory=dict)


def convert(model: Model, registry: Registry, *, input_shapes: Mapping[str, Sequence[int]] | None = None,
            keep_types: bool = False) -> Conversion:
    """`model` as an ai.onnx ModelProto, or the nodes that have no mapping (ViewError when the file's references do
    not hold, or an input shape does not fit: validate first). `input_shapes` gives graph inputs the dims the file
    leaves unknown (MXNet models declare none)."""
    # a float16 model (its constants float16) computes in float32 (--keep-types keeps the constants as stored)
    float16_model = any(t.kind == 2 and t.data_type == 1 for t in model.graph.tensors)
    view = to_onnx(model, registry, widen_float16=float16_model)
    if input_shapes:
        _set_input_shapes(view.model, input_shapes)
    by_name = {v.name: v for v in tengine_versions(registry).values()}
    shapes = _value_shapes(view.model, registry)
    plans: list[_Planned | None] = []
    unmapped: list[Unmapped] = []
    constants = {t.name: t for t in view.model.graph.initializer}
    read = {n for node in view.model.graph.node for n in node.input}
    for k, node in enumerate(view.model.graph.node):
        version = by_name[node.op_type]
        env = formula_environment(version, [shapes.facts.get(n) if n else None for n in node.input], _given(node))
        values = _constant_values(node, version, constants)
        found = _choose(version, env, values)
        if isinstance(found, str):
            unmapped.append(Unmapped(view.node_indices[k], node.name, node.op_type, found))
            plans.append(None)
            continue
        plans.append(_Planned(version, found, env, values))
        for out in node.output:
            problem = _reading_problem(out, shapes) if out in read else ""
            if problem:
                unmapped.append(Unmapped(view.node_indices[k], node.name, node.op_type, problem))
    # at least opset 13 (IR 7: initializers need not be graph inputs, and the ops' newer forms apply)
    opset = max([MIN_OPSET, *(p.mapping.opset for p in plans if p is not None)])
    for k, (node, plan) in enumerate(zip(view.model.graph.node, plans, strict=True)):
        if plan is None or plan.mapping.fold:
            continue
        targets = [(plan.mapping.op, list(plan.mapping.attributes)),
                   *((t.op, list(t.attributes)) for t in plan.mapping.then)]
        for op, attributes in targets:
            problem = _version_problem(registry, plan.mapping.domain, op, attributes, opset)
            if problem:
                unmapped.append(Unmapped(view.node_indices[k], node.name, node.op_type, problem))
    if unmapped:
        return Conversion(None, tuple(sorted(set(unmapped), key=lambda u: u.node_index)), opset)
    built = tidy(_Builder(view, registry, shapes, opset).build(plans))
    if keep_types:
        from opset.tmfile.keep_types import keep_stored_types

        built = keep_stored_types(built, model, view, registry)
    return Conversion(built, (), opset)


def _set_input_shapes(model: onnx.ModelProto, input_shapes: Mapping[str, Sequence[int]]) -> None:
    inputs = {vi.name: vi for vi in model.graph.input}
    for name, dims in input_shapes.items():
        vi = inputs.get(name)
        if vi is None:
            raise ViewError(f"--input-shape names '{name}', which is not a graph input ({', '.join(inputs)})")
        shape = vi.type.tensor_type.shape
        if shape.dim and len(shape.dim) != len(dims):
            raise ViewError(f"input '{name}' has rank {len(shape.dim)}; --input-shape gives {list(dims)}")
        del shape.dim[:]
        for d in dims:
            shape.dim.add().dim_value = int(d)


def _given(node: onnx.NodeProto) -> dict[str, Any]:
    given: dict[str, Any] = {}
    for attr in node.attribute:
        value = helper.get_attribute_value(attr)
        given[attr.name] = value.decode() if isinstance(value, bytes) else \
            list(value) if isinstance(value, (list, tuple)) else value
    return given


def _value_shapes(model: onnx.ModelProto, registry: Registry) -> _Shapes:
    """Every value's shape as the validator propagates it (formulas of `maps_to` read input shapes)."""
    from opset.validate import check_model

    result = check_model(model, None, registry)
    facts = {name: list(f.shape) for name, f in result.facts.items() if f.shape is not None}
    inferred = {name: list(s) for name, s in result.inferred.items()}
    types = {name: f.type for name, f in result.facts.items() if f.type is not None}
    return _Shapes(facts, inferred, types)


def _reading_problem(out: str, shapes: _Shapes) -> str:
    """Why an output declared by another reading cannot be given its declared shape by a Reshape ("" when it can
    or need not)."""
    declared, computed = shapes.facts.get(out), shapes.inferred.get(out)
    if declared is None or computed is None or declared == computed:
        return ""
    if all(isinstance(d, int) for d in declared + computed) and math.prod(declared) != math.prod(computed):
        return (f"output '{out}' is declared {declared}, which another reading of the op computes; the registry's "
                f"{computed} holds other elements, so no Reshape gives the declared one")
    return ""


def _version_problem(registry: Registry, domain: str, op: str, attributes: Sequence[str], opset: int) -> str:
    """Why the target, resolved at the model's opset, does not take what the mapping gives it ("" when it does)."""
    at_model = registry.try_resolve(domain, op, opset)
    if at_model is None:
        return f"{domain}::{op} does not resolve at opset {opset}, the opset the model's other mappings need"
    missing = [a for a in attributes if a not in at_model.attributes]
    if missing:
        return (f"the model imports opset {opset}, where {domain}::{op}@{at_model.since} has no attribute "
                f"{', '.join(missing)}, which the mapping sets")
    return ""


def _constant_values(node: onnx.NodeProto, version: OpVersion,
                     constants: Mapping[str, onnx.TensorProto]) -> dict[str, list[Any]]:
    """The values of the node's small constant inputs by the op's input names, for `value()` in mappings."""
    found: dict[str, list[Any]] = {}
    for name, values in inputs_by_name(node, version).items():
        if len(values) == 1 and values[0] in constants and math.prod(constants[values[0]].dims) <= MAX_VALUES:
            found[name] = numpy_helper.to_array(constants[values[0]]).reshape(-1).tolist()
    return found


MAX_VALUES = 4096  # a constant input larger than this is not read for value()


def _holds(formula: Formula | None, env: Mapping[str, Any], values: Mapping[str, list[Any]]) -> bool:
    return formula is None or bool(formula.evaluate(env, values))


def _choose(version: OpVersion, env: Mapping[str, Any], values: Mapping[str, list[Any]]) -> MapsTo | str:
    """The first mapping whose `when` holds, or why there is none (the YAML's words)."""
    m = version.maps_to
    if m is None:
        return version.unmapped or f"no maps_to: the registry names no op of another domain computing {version.name}"
    reasons = []
    for candidate in (m, *m.alternatives):
        if candidate.when is None and not candidate.exact:
            reasons.append(f"{candidate.op} only approximates it ({candidate.note or 'exact: false'})")
            continue
        try:
            if _holds(candidate.when, env, values):
                return candidate
        except (FormulaError, Undecided) as e:
            reasons.append(f"{candidate.op}: its condition cannot be decided ({e}; --input-shape can fix unknown dims)")
    why = m.unmapped or "; ".join(reasons) or m.note
    return f"no mapping applies to these parameters: {why}"


class _Builder:
    """The ai.onnx graph, node by node."""

    def __init__(self, view: OnnxView, registry: Registry, shapes: _Shapes, opset: int) -> None:
        self.view = view
        self.registry = registry
        self.shapes = shapes
        self.opset = opset
        self.nodes: list[onnx.NodeProto] = []
        self.initializers = list(view.model.graph.initializer)
        self.taken = {t.name for t in self.initializers} | {n for node in view.model.graph.node for n in
                                                              [*node.input, *node.output]}
        self.read = {n for node in view.model.graph.node for n in node.input}  # values some node reads

    def fresh(self, base: str) -> str:
        name = base
        while name in self.taken:
            name += "_"
        self.taken.add(name)
        return name

    def build(self, plans: Sequence[_Planned | None]) -> onnx.ModelProto:
        graph = self.view.model.graph
        for node, plan in zip(graph.node, plans, strict=True):
            assert plan is not None
            self.node(node, plan)
        # a graph output has the shape the registry gives it (what Tengine computes today), also where the file
        # declared another reading's: no node reads it, so no Reshape to the declared dims is needed
        outputs = [_with_shape(vi, self.shapes.inferred.get(vi.name) or self.shapes.facts.get(vi.name))
                   for vi in graph.output]
        new_graph = helper.make_graph(self.nodes, graph.name, list(graph.input), outputs, self.initializers,
                                      value_info=list(graph.value_info))
        imports = [helper.make_opsetid("", self.opset)]
        model = helper.make_model(new_graph, opset_imports=imports, producer_name="opset convert",
                                  ir_version=helper.find_min_ir_version_for(imports))
        model.metadata_props.extend(self.view.model.metadata_props)
        return model

    def node(self, node: onnx.NodeProto, plan: _Planned) -> None:
        m, env, values = plan.mapping, plan.env, plan.values
        if m.fold:
            self.folded(node, plan)
            return
        # outputs declared by another reading: computed as the registry says, then reshaped to what the file declares;
        # outputs the target gives in another element type: cast after it
        declared: dict[str, list[Any]] = {}
        casts: dict[str, str] = {}
        outs = []
        for pos, out in enumerate(node.output):
            wanted, computed = self.shapes.facts.get(out), self.shapes.inferred.get(out)
            param = plan.version.outputs[min(pos, len(plan.version.outputs) - 1)].name
            if out and wanted is not None and computed is not None and wanted != computed and out in self.read:
                declared[out] = wanted
                outs.append(self.fresh(f"{out}__registry"))
            elif out and param in m.cast_outputs:
                casts[out] = m.cast_outputs[param]
                outs.append(self.fresh(f"{out}__target"))
            else:
                outs.append(out)
        version = self.registry.resolve(m.domain, m.op, self.opset)
        attributes = {t: _plain(f.evaluate(env, values)) for t, f in m.attributes.items()}
        by_name = inputs_by_name(node, plan.version)
        inputs = self.wired(node, plan.version, m, env, values, by_name)
        follow = [t for t in m.then if _holds(t.when, env, values)]
        if m.per_output:
            for k, out in enumerate(outs):
                self.nodes.append(helper.make_node(m.op, inputs, [out], name=f"{node.name}/{k}", **attributes))
        else:
            first_out = [self.fresh(f"{outs[0]}__{m.op.lower()}"), *outs[1:]] if follow else outs
            variadic = bool(version.outputs) and version.outputs[-1].variadic
            kept = first_out if variadic else first_out[:len(version.outputs) or 1]
            self.nodes.append(helper.make_node(m.op, inputs, kept, name=node.name, **attributes))
            previous = first_out[0]
            named = {"@": previous}  # `as` names of the follow-ups' outputs, "@" the mapping's own output
            for i, then in enumerate(follow):
                target = outs[0] if i == len(follow) - 1 else self.fresh(f"{outs[0]}__{then.op.lower()}")
                self.nodes.append(helper.make_node(
                    then.op, self.follow_inputs(node, then, previous, named, env, values, by_name, m), [target],
                    name=f"{node.name}/{then.op}/{i}",
                    **{t: _plain(f.evaluate(env, values)) for t, f in then.attributes.items()}))
                previous = target
                if then.name is not None:
                    named[then.name] = target
        for out, temporary in zip(node.output, outs, strict=True):
            if out in casts:
                to = helper.np_dtype_to_tensor_dtype(np.dtype(_CONST_TYPES[casts[out]]))
                self.nodes.append(helper.make_node("Cast", [temporary], [out], name=f"{node.name}/{out}/Cast", to=to))
            if out in declared:
                shape = self.const(f"{out}__declared_shape", np.asarray(declared[out], np.int64))
                self.nodes.append(helper.make_node("Reshape", [temporary, shape], [out], name=f"{node.name}/declared"))

    def wired(self, node: onnx.NodeProto, version: OpVersion, m: MapsTo, env: Mapping[str, Any],
              values: Mapping[str, list[Any]], by_name: dict[str, list[str]]) -> list[str]:
        """The target's inputs: the node's by the tengine op's input names, constants, "" for an omitted one."""
        if m.inputs is None:
            return list(node.input)
        wired = []
        for name in m.inputs:
            if name in m.const_inputs:
                wired.append(self.const_input(f"{node.name}_{name}", m.const_inputs[name], env, values))
            elif name == "":
                wired.append("")
            else:
                wired.extend(self.reshaped(node, name, m, env, values, by_name))
        while wired and wired[-1] == "":
            wired.pop()
        return wired

    def reshaped(self, node: onnx.NodeProto, name: str, m: MapsTo, env: Mapping[str, Any],
                 values: Mapping[str, list[Any]], by_name: dict[str, list[str]]) -> list[str]:
        """This op's input `name` as the target takes it (cast and reshaped where the mapping says)."""
        names = by_name.get(name, [])
        if names and name in m.cast_inputs:
            to = helper.np_dtype_to_tensor_dtype(np.dtype(_CONST_TYPES[m.cast_inputs[name]]))
            cast = self.fresh(f"{names[0]}__{m.cast_inputs[name]}")
            self.nodes.append(helper.make_node("Cast", [names[0]], [cast], name=f"{cast}/Cast", to=to))
            names = [cast]
        if name not in m.reshape_inputs or not names:
            return names
        shape = [int(d) for d in _plain(m.reshape_inputs[name].evaluate(env, values))]
        current = env.get(name)
        if isinstance(current, list) and [_plain(d) for d in current] == shape:
            return names  # already in the shape the target takes
        return [self.reshape(names[0], shape, f"{node.name}_{name}")]

    def follow_inputs(self, node: onnx.NodeProto, then: FollowUp, previous: str, named: Mapping[str, str],
                      env: Mapping[str, Any], values: Mapping[str, list[Any]], by_name: dict[str, list[str]],
                      m: MapsTo) -> list[str]:
        names = then.inputs if then.inputs is not None else ("_", *then.const_inputs)
        wired: list[str] = []
        for name in names:
            if name == "_":
                wired.append(previous)
            elif name in named:
                wired.append(named[name])
            elif name == "":
                wired.append("")
            elif name in then.const_inputs:
                wired.append(self.const_input(f"{node.name}_{then.op}_{name}", then.const_inputs[name], env, values))
            else:
                wired.extend(self.reshaped(node, name, m, env, values, by_name))
        while wired and wired[-1] == "":
            wired.pop()
        return wired

    def reshape(self, value: str, shape: list[int], name: str) -> str:
        """`value` in `shape`: a reshaped copy of a constant, else a Reshape node before the target."""
        for t in self.initializers:
            if t.name == value:
                return self.const(name, reshaped_constant(t, shape, name))
        shape_name = self.const(f"{name}_shape", np.asarray(shape, dtype=np.int64))
        out = self.fresh(name)
        self.nodes.append(helper.make_node("Reshape", [value, shape_name], [out], name=f"{out}/Reshape"))
        return out

    def const_input(self, name: str, spec: ConstInput, env: Mapping[str, Any], values: Mapping[str, list[Any]]) -> str:
        return self.const(name, np.asarray(_plain(spec.value.evaluate(env, values)), dtype=_CONST_TYPES[spec.dtype]))

    def const(self, name: str, value: np.ndarray) -> str:
        name = self.fresh(name)
        self.initializers.append(numpy_helper.from_array(value, name))
        return name

    def folded(self, node: onnx.NodeProto, plan: _Planned) -> None:
        """A node whose outputs depend on its input shapes only, computed by the reference kernels as constants."""
        from opset.graph.eager import run_node

        arrays = []
        for name in node.input:
            shape = self.shapes.facts.get(name) if name else None
            if name and (shape is None or not all(isinstance(d, int) for d in shape)):
                raise ViewError(f"{node.name}: the shape of input '{name}' is not known, so its constant output "
                                "cannot be computed (--input-shape gives the graph's inputs dims)")
            arrays.append(np.zeros(shape, np.float32) if name and shape is not None else None)
        got = run_node(node, arrays, plan.version)
        for out, value in zip(node.output, got, strict=False):
            if out:
                self.initializers.append(numpy_helper.from_array(np.asarray(value, np.float32), out))


def reshaped_constant(t: onnx.TensorProto, shape: list[int], name: str) -> np.ndarray:
    """A constant's values in another shape; ViewError when a damaged file's dims disagree with the mapping's."""
    if math.prod(t.dims) != math.prod(shape):
        raise ViewError(f"{name}: constant '{t.name}' of dims {list(t.dims)} cannot take the shape {shape} the "
                        "mapping needs")
    return numpy_helper.to_array(t).reshape(shape)


def inputs_by_name(node: onnx.NodeProto, version: OpVersion) -> dict[str, list[str]]:
    """The node's value names under the tengine op's input names (a variadic input takes all the rest)."""
    found: dict[str, list[str]] = {}
    names = list(node.input)
    for pos, param in enumerate(version.inputs):
        if param.variadic:
            found[param.name] = names[pos:]
            break
        if pos < len(names) and names[pos]:
            found[param.name] = [names[pos]]
    return found


def _with_shape(vi: onnx.ValueInfoProto, shape: list[Any] | None) -> onnx.ValueInfoProto:
    """A graph output with the shape the validator knows (the file's declaration where the registry gives none)."""
    if shape is None:
        return vi
    dims = [d if isinstance(d, int) else str(d) for d in shape]
    return helper.make_tensor_value_info(vi.name, vi.type.tensor_type.elem_type, dims)


def _plain(value: Any) -> Any:
    """A formula's value as onnx.helper takes it (Fractions and symbolic ints made plain numbers)."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (bool, int, float, str)):
        return value
    try:
        return int(value) if int(value) == value else float(value)
    except (TypeError, ValueError) as e:
        raise FormulaError(f"not a concrete value: {value!r}") from e
