"""One-node ONNX models: how a case reaches model-level backends and how repro bundles store it."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

import numpy as np
import onnx
from onnx import helper, numpy_helper

from conformance.containers import shape_of, value_type
from conformance.strategies.case import Case
from opset.attr_types import ATTR_TYPES
from opset.cells import cell_type
from opset.dtypes import is_container
from opset.model import OpVersion, Param
from opset.validate.facts import type_proto


def node_domain(registry_domain: str) -> str:
    """The domain string a node carries for a registry domain (the Domain record says: "" for ai.onnx)."""
    from conformance.registry import current_registry

    return current_registry().node_domain(registry_domain)


def registry_domain(node_domain_name: str) -> str:
    """The registry domain of a node's domain string."""
    from conformance.registry import current_registry

    return current_registry().canonical_domain(node_domain_name)


# domains whose versions are onnx's opset numbers (onnxruntime's layout transformer writes com.ms.internal.nhwc nodes
# at the graph's ai.onnx opset, and inlines their function bodies, DepthToSpace's and SpaceToDepth's, at that opset)
ONNX_NUMBERED_DOMAINS = frozenset({"com.ms.internal.nhwc"})


def opset_imports_for(version: OpVersion) -> dict[str, int]:
    """node domain -> opset: the version's own, plus the domain it extends (modified ONNX sits on ai.onnx@7), or
    for a domain numbered as onnx, ai.onnx at the same opset (13 at least, as for every other domain)."""
    from conformance.registry import current_registry

    registry = current_registry()
    imports = {registry.node_domain(version.domain): version.since}
    if version.domain in ONNX_NUMBERED_DOMAINS:
        imports.setdefault("", max(version.since, 13))
    domain = registry.domains.get(version.domain)
    if domain is not None and domain.extends is not None:
        imports.setdefault(registry.node_domain(domain.extends[0]), domain.extends[1])
    if "" not in imports:
        imports[""] = 13  # an ai.onnx import keeps tools that insist on one quiet
    return imports


def attribute_value(value: Any) -> Any:
    """A case attribute as `helper.make_attribute` wants it (arrays become TensorProtos)."""
    if isinstance(value, np.ndarray):
        return numpy_helper.from_array(value)
    return value


def make_node(case: Case) -> onnx.NodeProto:
    node = helper.make_node(case.version.name, case.input_names, case.output_names,
                            domain=node_domain(case.version.domain), name=case.version.name.lower())
    for name, value in sorted(case.node_attributes.items()):
        spec = case.version.attributes.get(name)
        # an empty list carries no element type, so the schema's attribute type names it
        empty = isinstance(value, list) and not value
        attr_type = ATTR_TYPES[spec.type].proto if spec is not None and empty else None
        node.attribute.append(helper.make_attribute(name, attribute_value(value), attr_type=attr_type))
    return node


def make_model(node: onnx.NodeProto, inputs: Sequence[Any], opset_imports: Mapping[str, int],
               output_dtypes: Sequence[Any] = (), output_shapes: Sequence[Any] = (), *,
               input_types: Sequence[str | None] = (), outer: Mapping[str, Any] | None = None,
               constant_inputs: Collection[int] = ()) -> onnx.ModelProto:
    """A model running `node` once: named inputs become graph inputs (an empty optional's type from
    `input_types`), outputs are typed when known. `output_dtypes` holds numpy dtypes (or their names) for tensors
    and type texts (`seq(tensor(float))`) for containers; `output_shapes` a tensor's shape or a sequence's element
    shapes. `outer` holds the values the node's graph attributes read from the enclosing graph: graph inputs too,
    after the node's (by name). The tensor inputs at the positions `constant_inputs` become initializers instead
    of graph inputs (`constant_positions`: the parameters a backend needs as constants)."""
    graph_inputs: list[onnx.ValueInfoProto] = []
    for name, x in sorted((outer or {}).items()):
        if name in node.input:
            continue
        text = value_type(x)
        if isinstance(x, np.ndarray):
            graph_inputs.append(helper.make_tensor_value_info(name, helper.np_dtype_to_tensor_dtype(x.dtype),
                                                              list(x.shape)))
        elif text is not None and "?" not in text:
            graph_inputs.append(_typed_value_info(name, text, x))
    outer_inputs, graph_inputs = graph_inputs, []
    initializers: list[onnx.TensorProto] = []
    for i, (name, x) in enumerate(zip(node.input, inputs, strict=False)):
        declared = input_types[i] if i < len(input_types) else None
        if not name:
            continue
        if i in constant_inputs and isinstance(x, np.ndarray) and name not in (outer or {}):
            initializers.append(numpy_helper.from_array(x, name))
            continue
        if isinstance(x, np.ndarray):
            graph_inputs.append(helper.make_tensor_value_info(name, helper.np_dtype_to_tensor_dtype(x.dtype),
                                                              list(x.shape)))
            if declared is not None and declared.startswith("optional("):  # a present optional stays one
                graph_inputs[-1] = _typed_value_info(name, declared, x)
            continue
        text = declared if declared is not None and "?" not in declared else value_type(x)
        if text is not None and "?" not in text:
            graph_inputs.append(_typed_value_info(name, text, x))
    graph_inputs += outer_inputs
    graph_outputs = []
    for i, name in enumerate(node.output):
        if not name:  # an omitted optional output (LSTM's Y where only Y_h is asked for) is no graph output
            continue
        dtype = output_dtypes[i] if i < len(output_dtypes) else None
        shape = output_shapes[i] if i < len(output_shapes) else None
        if isinstance(dtype, str) and "(" in dtype:
            graph_outputs.append(_typed_value_info(name, dtype, None, shape))
            continue
        if not dtype:  # no type at all (an UNDEFINED element type is refused by onnxruntime): the runtime infers it
            graph_outputs.append(onnx.ValueInfoProto(name=name))
            continue
        graph_outputs.append(helper.make_tensor_value_info(name, helper.np_dtype_to_tensor_dtype(np.dtype(dtype)),
                                                           symbolic_dims(name, shape)))
    graph = helper.make_graph([node], f"conform_{node.op_type}", graph_inputs, graph_outputs,
                              initializer=initializers)
    opsets = [helper.make_opsetid(d, v) for d, v in sorted(opset_imports.items())]
    model = helper.make_model(graph, opset_imports=opsets, producer_name="opset-conform")
    model.ir_version = min(helper.find_min_ir_version_for(opsets, ignore_unknown=True), onnx.IR_VERSION)
    model.ir_version = max(model.ir_version, 7)
    _complete_outputs(model)
    return model


_CONSTANT_ROLES: dict[str, frozenset[str]] = {"none": frozenset(), "params": frozenset({"parameter"}),
                                              "all": frozenset({"parameter", "weight"})}


def input_roles(version: OpVersion, count: int) -> list[str]:
    """The registry role of each of a node's `count` input positions (the values of a variadic last input share
    its role)."""
    params = version.inputs
    return [params[min(i, len(params) - 1)].role if params else "data" for i in range(count)]


def constant_positions(mode: str, roles: Sequence[str], inputs: Sequence[Any]) -> frozenset[int]:
    """The input positions a backend gets as constants under `mode` (`none`, `params`: the parameter inputs, `all`:
    parameters and weights): those of a role the mode names that hold a tensor."""
    if mode not in _CONSTANT_ROLES:
        raise ValueError(f"constant inputs '{mode}': not one of {', '.join(_CONSTANT_ROLES)}")
    wanted = _CONSTANT_ROLES[mode]
    return frozenset(i for i, (role, x) in enumerate(zip(roles, inputs, strict=False))
                     if role in wanted and isinstance(x, np.ndarray))


def symbolic_dims(name: str, shape: Any) -> list[int | str] | None:
    """A tensor's declared dims: known dims as they are, an unknown one (None) as a dim_param named after the value
    and position (`Y_d1`); None when not even the rank is known."""
    if not isinstance(shape, list | tuple):
        return None
    return [d if isinstance(d, int | str) else f"{name}_d{k}" for k, d in enumerate(shape)]


def _complete_outputs(model: onnx.ModelProto) -> None:
    """Give an output declared without a type, or a tensor output without a shape (onnx.checker requires both on a
    graph's outputs), what onnx's own inference finds for it, its unknown dims as dim_params. A node onnx has no
    schema for keeps what it has (nothing can be inferred for it)."""
    missing = [o for o in model.graph.output if not o.HasField("type") or (
        o.type.HasField("tensor_type") and not o.type.tensor_type.HasField("shape"))]
    if not missing:
        return
    try:
        inferred = onnx.shape_inference.infer_shapes(model)
    except (onnx.shape_inference.InferenceError, onnx.checker.ValidationError):
        return  # the backend's checker will say what is wrong with the model
    found = {v.name: v.type for v in inferred.graph.value_info}
    found.update({o.name: o.type for o in inferred.graph.output if o.HasField("type")})
    for output in missing:
        tp = found.get(output.name)
        if tp is None or tp.WhichOneof("value") is None:
            continue
        if not output.HasField("type"):
            if tp.HasField("tensor_type") and tp.tensor_type.elem_type == onnx.TensorProto.UNDEFINED:
                continue  # onnxruntime refuses an UNDEFINED element type: better none
            output.type.CopyFrom(tp)
            if not tp.HasField("tensor_type"):
                continue
            output.type.tensor_type.ClearField("shape")
        if not tp.HasField("tensor_type") or not tp.tensor_type.HasField("shape"):
            continue
        dims = output.type.tensor_type.shape
        dims.SetInParent()
        for k, dim in enumerate(tp.tensor_type.shape.dim):
            new = dims.dim.add()
            if dim.HasField("dim_value"):
                new.dim_value = dim.dim_value
            else:
                new.dim_param = dim.dim_param or f"{output.name}_d{k}"


def _typed_value_info(name: str, type_text: str, value: Any, shape: Any = None) -> onnx.ValueInfoProto:
    """A graph input or output of a container type (or a tensor that is an optional's content). The shape is the
    tensor's, or what a sequence's elements share (their dims where they agree); a map has none."""
    shapes = shape_of(value) if value is not None and shape is None else shape
    tp = type_proto(type_text, _common_shape(type_text, shapes, name))
    if tp is None:
        raise ValueError(f"'{name}': {type_text} is no type a model can declare")
    vi = onnx.ValueInfoProto(name=name)
    vi.type.CopyFrom(tp)
    return vi


def _common_shape(type_text: str, shapes: Any, name: str = "") -> Sequence[int | str | None] | None:
    if not isinstance(shapes, list):
        return None
    sequence = type_text.startswith("seq(") or type_text.startswith("optional(seq(")
    if not sequence:
        return symbolic_dims(name, shapes) if all(isinstance(d, int | str) or d is None for d in shapes) else None
    if not shapes or not all(isinstance(s, list) and len(s) == len(shapes[0]) for s in shapes):
        return None
    return [d if all(s[k] == d for s in shapes) else None for k, d in enumerate(shapes[0])]


def case_model(case: Case, output_dtypes: Sequence[Any] = (), output_shapes: Sequence[Any] = ()) -> onnx.ModelProto:
    return make_model(make_node(case), case.inputs, opset_imports_for(case.version), output_dtypes, output_shapes,
                      input_types=case.input_types(), outer=case.outer)


def node_attributes(node: onnx.NodeProto) -> dict[str, Any]:
    """A node's attributes as plain Python values (strings decoded, tensors as numpy arrays)."""
    out: dict[str, Any] = {}
    for attr in node.attribute:
        value = helper.get_attribute_value(attr)
        if isinstance(value, bytes):
            value = value.decode("utf-8")
        elif isinstance(value, list) and value and isinstance(value[0], bytes):
            value = [v.decode("utf-8") for v in value]
        elif isinstance(value, onnx.TensorProto):
            value = numpy_helper.to_array(value)
        out[attr.name] = value
    return out


def output_types(case: Case, expected: Sequence[Any] | None) -> list[str | None]:
    """What a model declares of each output of the case: a tensor's numpy dtype name (from the reference's value);
    a container's type text, from the case's type bindings where the value cannot show it (an empty sequence or
    optional); without a reference value, the type text the bindings or the parameter's fixed type give (None
    where nothing does)."""
    types: list[str | None] = []
    for i in range(len(case.output_names)):
        x = expected[i] if expected is not None and i < len(expected) else None
        param = output_param(case.version, i)
        bound = case.type_bindings.get(param.type) if param is not None else None
        if isinstance(x, np.ndarray) and (bound is None or not is_container(cell_type(bound))):
            types.append(x.dtype.name)
            continue
        if bound is not None:
            types.append(cell_type(bound))
            continue
        shown = value_type(x) if expected is not None and i < len(expected) else None
        if shown and "?" not in shown:
            types.append(shown)
        elif param is not None and case.version.type_variable(param.type) is None and "(" in param.type:
            types.append(param.type)  # a fixed type (`tensor(int64)`)
        else:
            types.append(None)
    return types


def output_shapes(case: Case, expected: Sequence[Any] | None) -> list[Any]:
    """What a model declares of each output's shape: the reference value's, else the shape formula's (None where
    neither is known: `make_model` then asks onnx's inference, and names unknown dims)."""
    shapes: list[Any] = []
    for i in range(len(case.output_names)):
        if expected is not None and i < len(expected):
            shapes.append(shape_of(expected[i]))
        else:
            shapes.append(case.expected_shapes[i] if i < len(case.expected_shapes) else None)
    return shapes


def output_param(version: OpVersion, i: int) -> Param | None:
    """The parameter of output position `i` (the values of a variadic last output all have it)."""
    params = version.outputs
    return params[i] if i < len(params) else params[-1] if params and params[-1].variadic else None
