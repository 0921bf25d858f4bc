"""One-node ONNX models: how a case reaches model-level backends and how repro bundles store it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import onnx
from onnx import helper, numpy_helper

from conformance.strategies.case import Case
from opset.attr_types import ATTR_TYPES
from opset.model import OpVersion


def node_domain(registry_domain: str) -> str:
    """The domain string a node carries for a registry domain (the Domain record says: "" for ai.onnx)."""
    from conformance.registry import current_registry

    return current_registry().node_domain(registry_domain)


def registry_domain(node_domain_name: str) -> str:
    """The registry domain of a node's domain string."""
    from conformance.registry import current_registry

    return current_registry().canonical_domain(node_domain_name)


def opset_imports_for(version: OpVersion) -> dict[str, int]:
    """node domain -> opset: the version's own, plus the domain it extends (modified ONNX sits on ai.onnx@7)."""
    from conformance.registry import current_registry

    registry = current_registry()
    imports = {registry.node_domain(version.domain): version.since}
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


def make_model(node: onnx.NodeProto, inputs: Sequence[np.ndarray | None], opset_imports: Mapping[str, int],
               output_dtypes: Sequence[np.dtype | None] = (),
               output_shapes: Sequence[list[int] | None] = (),
               outer: Mapping[str, np.ndarray] | None = None) -> onnx.ModelProto:
    """A model running `node` once: present inputs become graph inputs, outputs are typed when known. `outer`
    holds the values the node's graph attributes read from the enclosing graph: graph inputs too."""
    graph_inputs: list[onnx.ValueInfoProto] = []
    named = [(n, x) for n, x in zip(node.input, inputs, strict=False) if n and x is not None]
    for name, x in [*named, *sorted((outer or {}).items())]:
        if any(i.name == name for i in graph_inputs):
            continue
        graph_inputs.append(helper.make_tensor_value_info(name, helper.np_dtype_to_tensor_dtype(x.dtype),
                                                          list(x.shape)))
    graph_outputs = []
    for i, name in enumerate(node.output):
        dtype = output_dtypes[i] if i < len(output_dtypes) else None
        elem = helper.np_dtype_to_tensor_dtype(dtype) if dtype is not None else onnx.TensorProto.UNDEFINED
        shape = output_shapes[i] if i < len(output_shapes) else None
        graph_outputs.append(helper.make_tensor_value_info(name, elem, shape))
    graph = helper.make_graph([node], f"conform_{node.op_type}", graph_inputs, graph_outputs)
    opsets = [helper.make_opsetid(d, v) for d, v in sorted(opset_imports.items())]
    model = helper.make_model(graph, opset_imports=opsets, producer_name="opset-conform")
    model.ir_version = min(helper.find_min_ir_version_for(opsets, ignore_unknown=True), onnx.IR_VERSION)
    model.ir_version = max(model.ir_version, 7)
    return model


def case_model(case: Case, output_dtypes: Sequence[np.dtype | None] = (),
               output_shapes: Sequence[list[int] | None] = ()) -> onnx.ModelProto:
    return make_model(make_node(case), case.inputs, opset_imports_for(case.version), output_dtypes, output_shapes,
                      case.outer)


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
