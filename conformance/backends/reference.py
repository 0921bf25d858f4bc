"""The `reference` backend: the project's numpy kernels, resolved through the registry."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import onnx

from conformance.backends.protocol import Outer, Unsupported
from conformance.containers import as_value, shape_of
from conformance.models.graphs import GraphFunction, has_graphs
from conformance.string_arrays import normalized_value
from opset.errors import ResolutionError
from opset.infer import resolve_attributes
from opset.model import OpVersion


def reference_outputs(version: OpVersion, inputs: list[Any], attributes: Mapping[str, Any],
                      num_outputs: int | None = None, *, outer: Outer | None = None,
                      opset_imports: Mapping[str, int] | None = None) -> tuple[Any, ...]:
    """The reference kernel's outputs for complete `attributes`; follows an exact `maps_to` if needed.

    `num_outputs` is how many outputs the node asks for (None: all the kernel gives). A graph attribute given as
    a GraphProto reaches the kernel as a `GraphFunction` over `outer` (the enclosing values and the executor of
    its nodes; without one, the reference backend and no outer values) at `opset_imports` (default: the version's).
    """
    from conformance.kernels.registry import call_kernel, find_entry

    entry = find_entry(version.domain, version.name, version.since)
    if entry is not None:
        attributes = _graph_functions(version, attributes, outer, opset_imports)
        outputs = call_kernel(entry, version, list(inputs), dict(attributes), num_outputs)
        # containers (lists, None, dicts) stay as they are; string tensors come out as object arrays of str even
        # where a kernel's numpy gave a fixed-width <U array
        return tuple(normalized_value(as_value(x)) for x in outputs)
    target = version.maps_to
    # a mapping that needs more than renamed attributes (a condition, constants, reshapes, follow-up ops) is the
    # converter's, not a kernel substitute
    if target is None or not target.exact or target.when is not None or target.const_inputs or \
            target.reshape_inputs or target.then:
        from conformance.kernels import no_reference_kernel

        why = no_reference_kernel(version.domain, version.name) or "none is registered"
        raise Unsupported(f"no reference kernel for {version.signature}: {why}")
    from conformance.registry import current_registry

    mapped = current_registry().resolve(target.domain, target.op, target.opset)
    env = dict(attributes)
    given = {name: formula.evaluate(env) for name, formula in target.attributes.items()}
    by_name = {p.name: x for p, x in zip(version.inputs, inputs, strict=False)}
    order = target.inputs if target.inputs is not None else tuple(p.name for p in version.inputs)
    mapped_inputs = [by_name.get(n) if n else None for n in order]
    shapes = [shape_of(x) for x in mapped_inputs]
    return reference_outputs(mapped, mapped_inputs, resolve_attributes(mapped, given, shapes), num_outputs)


def _graph_functions(version: OpVersion, attributes: Mapping[str, Any], outer: Outer | None,
                     opset_imports: Mapping[str, int] | None) -> Mapping[str, Any]:
    """`attributes` with every GraphProto turned into a GraphFunction (the kernels' callables)."""
    graphs = [name for name, value in attributes.items() if isinstance(value, onnx.GraphProto)]
    if not graphs:
        return attributes
    if outer is None:
        outer = Outer({}, ReferenceBackend())
    if opset_imports is None:
        from conformance.onnx_model import opset_imports_for

        opset_imports = opset_imports_for(version)
    return {**attributes, **{name: GraphFunction(attributes[name], outer, opset_imports, name) for name in graphs}}


class ReferenceBackend:
    """Runs a node with our kernels; the node's domain and opset imports select the version.

    A node with graph attributes runs them through `outer.executor` (the model runner passes the executor of the
    whole model), reading the enclosing values `outer` holds; without `outer`, through this backend, reading the
    node's own inputs by name.
    """

    name = "reference"  # its identity: the expectations file it is checked with

    def warm(self) -> None:
        """Load the registry and every kernel module (what the first node would)."""
        from conformance.kernels import load_kernel_modules
        from conformance.registry import current_registry

        current_registry()
        load_kernel_modules()

    def run(self, node: onnx.NodeProto, inputs: list[Any], opset_imports: Mapping[str, int] | None = None,
            outer: Outer | None = None) -> list[Any]:
        from conformance.onnx_model import node_attributes, registry_domain
        from conformance.registry import current_registry
        from conformance.strategies.attributes import node_values

        registry = current_registry()
        opset = (opset_imports or {}).get(node.domain)
        if opset is None:
            raise Unsupported(f"no opset import for domain '{node.domain}'")
        try:
            domain = registry_domain(node.domain)
            version = registry.try_resolve(domain, node.op_type, opset) or _removed_version(domain, node.op_type, opset)
        except ResolutionError as e:  # an op or domain the registry lacks: nothing here can run it
            raise Unsupported(str(e)) from e
        shapes = [shape_of(x) for x in inputs]
        attributes = node_values(resolve_attributes(version, node_attributes(node), shapes))
        wanted = len(node.output) if node.output else None
        if outer is None and has_graphs(node):
            outer = Outer({n: x for n, x in zip(node.input, inputs, strict=False) if n}, self)
        return list(reference_outputs(version, list(inputs), attributes, wanted, outer=outer,
                                      opset_imports=opset_imports))


def _removed_version(domain: str, name: str, opset: int) -> OpVersion:
    """A removed op still runs at the opset of one of its own versions (its kernel keeps the draft's meaning)."""
    from conformance.registry import current_registry

    op = current_registry().op(domain, name)
    found = [v for v in op.versions if v.since <= opset]
    if not found:
        raise Unsupported(f"{domain}::{name} has no version at opset {opset}")
    return found[-1]
