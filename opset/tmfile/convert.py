"""A Tengine model as an ai.onnx model, through each op's `maps_to` in the registry: no per-op code here.

For every compute node of the tengine-domain view (`onnx_view`) the converter takes the first mapping of the op
whose `when` holds for the node's attributes and input shapes (the mapping, then its `alternatives` in order),
evaluates its attribute and `const_inputs` formulas, wires the node's inputs in the target's order, and appends
the `then` follow-ups whose `when` holds (a fused activation). A mapping with `exact: false` and no `when` does not
say where it holds, so it is not used. A node no mapping serves is listed with the YAML's reason (`unmapped` of the
mapping or the version, else its `note`), and no model is written.

The model imports ai.onnx at the highest opset its mappings name; a target that does not resolve there is
reported like an unmapped node.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import onnx
from onnx import helper, numpy_helper

from opset.formula import Formula, FormulaError
from opset.infer import formula_environment
from opset.model import ConstInput, MapsTo, OpVersion
from opset.registry import Registry
from opset.tmfile.model import Model
from opset.tmfile.onnx_view import OnnxView, ViewError, to_onnx
from opset.tmfile.params import tengine_versions

_CONST_TYPES = {"float": np.float32, "int64": np.int64, "int32": np.int32}


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


def convert(model: Model, registry: Registry) -> Conversion:
    """`model` as an ai.onnx ModelProto, or the nodes that have no mapping (ViewError when the file's references do
    not hold: validate first)."""
    view = to_onnx(model, registry)
    by_name = {v.name: v for v in tengine_versions(registry).values()}
    shapes = _value_shapes(view.model, registry)
    plans: list[_Planned | None] = []
    unmapped: list[Unmapped] = []
    for k, node in enumerate(view.model.graph.node):
        version = by_name[node.op_type]
        env = formula_environment(version, [shapes.get(n) if n else None for n in node.input], _given(node))
        found = _choose(version, env)
        if isinstance(found, str):
            unmapped.append(Unmapped(view.node_indices[k], node.name, node.op_type, found))
            plans.append(None)
        else:
            plans.append(_Planned(version, found, env))
    opset = max((p.mapping.opset for p in plans if p is not None), default=1)
    for k, (node, plan) in enumerate(zip(view.model.graph.node, plans, strict=True)):
        if plan is None:
            continue
        for op in [plan.mapping.op, *(t.op for t in plan.mapping.then)]:
            if registry.try_resolve(plan.mapping.domain, op, opset) is None:
                unmapped.append(Unmapped(view.node_indices[k], node.name, node.op_type,
                                         f"{plan.mapping.domain}::{op} does not resolve at opset {opset}, the "
                                         "opset the model's other mappings need"))
    if unmapped:
        return Conversion(None, tuple(sorted(set(unmapped), key=lambda u: u.node_index)), opset)
    return Conversion(_build(view, [p for p in plans if p is not None], opset, registry, shapes), (), opset)


def _given(node: onnx.NodeProto) -> dict[str, Any]:
    given: dict[str, Any] = {}
    for attr in node.attribute:
        value = helper.get_attribute_value(attr)
        given[attr.name] = value.decode() if isinstance(value, bytes) else \
            list(value) if isinstance(value, (list, tuple)) else value
    return given


def _value_shapes(model: onnx.ModelProto, registry: Registry) -> dict[str, list[Any]]:
    """Every value's shape as the validator propagates it (formulas of `maps_to` may read input shapes)."""
    from opset.validate import check_model

    result = check_model(model, None, registry)
    return {name: list(f.shape) for name, f in result.facts.items() if f.shape is not None}


def _holds(formula: Formula | None, env: Mapping[str, Any]) -> bool:
    return formula is None or bool(formula.evaluate(env))


def _choose(version: OpVersion, env: Mapping[str, Any]) -> MapsTo | str:
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
            if _holds(candidate.when, env):
                return candidate
        except FormulaError as e:
            reasons.append(f"{candidate.op}: its condition cannot be decided ({e})")
    why = m.unmapped or "; ".join(reasons) or m.note
    return f"no mapping applies to these parameters: {why}"


def _build(view: OnnxView, plans: Sequence[_Planned], opset: int, registry: Registry,
           shapes: Mapping[str, list[Any]]) -> onnx.ModelProto:
    graph = view.model.graph
    nodes: list[onnx.NodeProto] = []
    initializers = list(graph.initializer)
    for node, plan in zip(graph.node, plans, strict=True):
        m, env = plan.mapping, plan.env
        version = registry.resolve(m.domain, m.op, opset)
        attributes = {t: _plain(f.evaluate(env)) for t, f in m.attributes.items()}
        inputs = _wired(node, plan.version, m, env, initializers, nodes)
        follow = [t for t in m.then if _holds(t.when, env)]
        out = list(node.output)
        first_out = [f"{out[0]}__{m.op.lower()}", *out[1:]] if follow else out
        nodes.append(helper.make_node(m.op, inputs, first_out[:len(version.outputs) or 1], name=node.name,
                                      **attributes))
        previous = first_out[0]
        for i, then in enumerate(follow):
            target = out[0] if i == len(follow) - 1 else f"{out[0]}__{then.op.lower()}"
            extra = [_const(f"{node.name}_{then.op}_{name}", c, env, initializers)
                     for name, c in then.const_inputs.items()]
            nodes.append(helper.make_node(then.op, [previous, *extra], [target], name=f"{node.name}/{then.op}",
                                          **{t: _plain(f.evaluate(env)) for t, f in then.attributes.items()}))
            previous = target
    outputs = [_with_shape(vi, shapes.get(vi.name)) for vi in graph.output]
    read = {name for n in nodes for name in n.input}
    initializers = [t for t in initializers if t.name in read]  # a Tengine-only input (Reshape's shape) goes
    new_graph = helper.make_graph(nodes, graph.name, list(graph.input), outputs, initializers,
                                  value_info=list(graph.value_info))
    imports = [helper.make_opsetid("", opset)]
    model = helper.make_model(new_graph, opset_imports=imports, producer_name="opset convert",
                              ir_version=helper.find_min_ir_version_for(imports))
    model.metadata_props.extend(view.model.metadata_props)
    return model


def _wired(node: onnx.NodeProto, version: OpVersion, m: MapsTo, env: Mapping[str, Any],
           initializers: list[onnx.TensorProto], extra_nodes: list[onnx.NodeProto]) -> list[str]:
    """The target's inputs: the node's by the tengine op's input names, constants, "" for an omitted one."""
    if m.inputs is None:
        return list(node.input)
    by_name = inputs_by_name(node, version)
    wired = []
    for name in m.inputs:
        if name in m.const_inputs:
            wired.append(_const(f"{node.name}_{name}", m.const_inputs[name], env, initializers))
        elif name == "":
            wired.append("")
        elif name in m.reshape_inputs and name in by_name:
            shape = [int(d) for d in _plain(m.reshape_inputs[name].evaluate(env))]
            current = env.get(name)
            if isinstance(current, list) and [_plain(d) for d in current] == shape:
                wired.append(by_name[name][0])  # already in the shape the target takes
            else:
                wired.append(_reshaped(by_name[name][0], shape, f"{node.name}_{name}", initializers, extra_nodes))
        else:
            wired.extend(by_name.get(name, []))
    while wired and wired[-1] == "":
        wired.pop()
    return wired


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


def _reshaped(value: str, shape: list[int], name: str, initializers: list[onnx.TensorProto],
              nodes: list[onnx.NodeProto]) -> str:
    """`value` in `shape`: a reshaped copy of a constant, else a Reshape node before the target."""
    for t in initializers:
        if t.name == value:
            if math.prod(t.dims) != math.prod(shape):  # a damaged file's dims disagree with what the mapping needs
                raise ViewError(f"{name}: constant '{value}' of dims {list(t.dims)} cannot take the shape {shape} "
                                "the mapping needs")
            initializers.append(numpy_helper.from_array(numpy_helper.to_array(t).reshape(shape), name))
            return name
    shape_name = f"{name}_shape"
    initializers.append(numpy_helper.from_array(np.asarray(shape, dtype=np.int64), shape_name))
    nodes.append(helper.make_node("Reshape", [value, shape_name], [name], name=f"{name}/Reshape"))
    return name


def _with_shape(vi: onnx.ValueInfoProto, shape: list[Any] | None) -> onnx.ValueInfoProto:
    """A graph output with the shape the validator propagated when the file declares none (ONNX wants one)."""
    if vi.type.tensor_type.HasField("shape") or shape is None:
        return vi
    dims = [d if isinstance(d, int) else str(d) for d in shape]
    return helper.make_tensor_value_info(vi.name, vi.type.tensor_type.elem_type, dims)


def _const(name: str, spec: ConstInput, env: Mapping[str, Any], initializers: list[onnx.TensorProto]) -> str:
    value = np.asarray(_plain(spec.value.evaluate(env)), dtype=_CONST_TYPES[spec.dtype])
    initializers.append(numpy_helper.from_array(value, name))
    return name


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


def main_convert(args: Sequence[str]) -> int:
    """`opset convert MODEL.tmfile MODEL.onnx`: exit 0 written, 1 when some node has no mapping (each listed with
    its reason) or the model is invalid, 2 when the file cannot be read."""
    import argparse
    import sys

    from opset.errors import RegistryError
    from opset.load import load_registry
    from opset.tmfile import TmfileError, read_tmfile
    from opset.tmfile.onnx_view import ViewError
    from opset.tmfile.validate import structure_diagnostics

    p = argparse.ArgumentParser(prog="opset convert", description=(
        "Convert a Tengine .tmfile into an ai.onnx model through the registry's maps_to. Exit 0 when written, "
        "1 when a node has no mapping (all listed with their reasons) or the model is invalid, 2 when the file "
        "cannot be read."))
    p.add_argument("model", help="path of a .tmfile")
    p.add_argument("output", help="where to write the .onnx model")
    try:
        ns = p.parse_args(list(args))
    except SystemExit as e:
        return int(e.code) if isinstance(e.code, int) else 2
    try:
        registry = load_registry()
    except RegistryError as e:
        print(e, file=sys.stderr)
        return 1
    try:
        model = read_tmfile(ns.model, registry)
    except TmfileError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    problems = [d for d in structure_diagnostics(model.graph, tengine_versions(registry)) if d.is_error]
    for d in problems:
        print(f"{ns.model}: {d}", file=sys.stderr)
    if problems:
        print(f"error: {ns.model}: {len(problems)} error(s) in the file (opset validate says more); nothing written",
              file=sys.stderr)
        return 1
    try:
        result = convert(model, registry)
    except (ViewError, FormulaError) as e:
        print(f"error: {ns.model}: {e}", file=sys.stderr)
        return 1
    if result.model is None:
        for u in result.unmapped:
            print(f"{ns.model}: unmapped {u}", file=sys.stderr)
        ops = sorted({u.op for u in result.unmapped})
        print(f"error: {ns.model}: {len(result.unmapped)} node(s) have no ai.onnx mapping ({', '.join(ops)}); "
              "nothing written", file=sys.stderr)
        return 1
    try:
        onnx.checker.check_model(result.model, full_check=True)
    except (onnx.checker.ValidationError, onnx.shape_inference.InferenceError) as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        print(f"error: {ns.model}: the converted model does not pass onnx.checker: {first}", file=sys.stderr)
        return 1
    try:
        onnx.save_model(result.model, ns.output)
    except OSError as e:
        print(f"error: cannot write {ns.output}: {e}", file=sys.stderr)
        return 2
    print(f"{ns.output}: {len(result.model.graph.node)} ai.onnx nodes at opset {result.opset} from "
          f"{len(model.graph.nodes)} Tengine nodes ({len(result.model.graph.initializer)} initializers)")
    return 0
