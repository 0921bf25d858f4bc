"""Eager mode: an op function given numpy arrays checks its node as graph mode does, then evaluates it.

The evaluator comes through a declared interface, `opset.graph.evaluator`: the provider a package declares under
the entry-point group `opset.evaluators` (this project's is `conformance.backends.eager`, the reference kernels
by default). `set_evaluator(backend)` takes any backend `conform --backend` takes: an object with
`run(node, inputs[, opset_imports])` or `run(model, feeds)`, an `onnx.backend` backend, or what
`conformance.backends.resolve_backend(...)` gives; the provider adapts it. `opset` sits below the kernels and
conform's adapters in the layers (docs/architecture.md) and never names them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from opset.graph.check import check_node, node_proto, registry
from opset.graph.evaluator import Evaluator, NodeCall, provider
from opset.graph.graph import output_labels
from opset.graph.value import Array, Value, element_of

if TYPE_CHECKING:
    from opset.model import OpVersion

_CHOSEN: list[Evaluator] = []


def set_evaluator(evaluator: object | None) -> None:
    """Evaluate eager calls with `evaluator`, any backend `conform --backend` takes (None: the reference kernels
    again). Raises ValueError when it is none (no `run` method)."""
    _CHOSEN.clear()
    if evaluator is not None:
        _CHOSEN.append(provider().adapt(evaluator, type(evaluator).__name__))


def evaluator() -> Evaluator:
    if not _CHOSEN:
        _CHOSEN.append(provider().default())
    return _CHOSEN[0]


def evaluate(version: OpVersion, inputs: Sequence[Any], attributes: Mapping[str, Any],
             wanted: tuple[int, ...]) -> tuple[Array, ...]:
    """The outputs `wanted` of the node on `inputs` (arrays, None for an omitted optional input)."""
    values: list[Value | None] = []
    for position, x in enumerate(inputs):
        if x is None:
            values.append(None)
            continue
        if not isinstance(x, np.ndarray):
            raise TypeError(f"{version.signature}: input {position} is a {type(x).__name__}, not a numpy array")
        known = tuple(int(v) for v in x.reshape(-1)) if x.dtype.kind in "iu" and x.size <= 4096 else None
        values.append(Value(f"tensor({element_of(x)})", tuple(int(d) for d in x.shape), f"input{position}",
                            known=known))
    labels = output_labels(version, wanted, "output:")
    node_domain = registry().node_domain(version.domain)
    inferred = check_node(version, node_domain, values, attributes, labels)
    node = node_proto(version, node_domain, [v.label if v is not None else "" for v in values], labels, attributes)
    got = evaluator().run(_call(
        version, node, inputs, output_dtypes=[_output_dtype(t) for t, _, _ in inferred],
        output_shapes=[list(s) if s is not None and all(isinstance(d, int) for d in s) else None
                       for _, s, _ in inferred]))
    if len(got) <= max(wanted, default=-1):
        raise RuntimeError(f"{version.signature}: the evaluator gave {len(got)} outputs, the node has {len(labels)}")
    return tuple(np.asarray(got[i]) for i in wanted)


def run_node(node: Any, inputs: Sequence[np.ndarray | None], version: OpVersion) -> list[np.ndarray]:
    """The outputs of a ready NodeProto of `version` on `inputs` (None: an omitted optional input), through the
    chosen evaluator; the node is not checked again (its caller built it from the registry)."""
    return [np.asarray(y) for y in evaluator().run(_call(version, node, inputs,
                                                         output_dtypes=[None] * len(node.output)))]


def _call(version: OpVersion, node: Any, inputs: Sequence[Any], *, output_dtypes: list[str | None],
          output_shapes: list[Any] | None = None) -> NodeCall:
    """The evaluator's NodeCall for one node of `version` (the one place eager mode builds it)."""
    return NodeCall(
        node_bytes=node.SerializeToString(), inputs=list(inputs),
        opset_imports=_opset_imports(version, registry().node_domain(version.domain)), output_dtypes=output_dtypes,
        domain=version.domain, op=version.name, version=version.since,
        dtypes=sorted({element_of(x) for x in inputs if isinstance(x, np.ndarray)}), output_shapes=output_shapes)


def _opset_imports(version: OpVersion, node_domain: str) -> dict[str, int]:
    """The node's domain at its version, the domain it extends, and an ai.onnx import (onnxruntime wants one)."""
    reg = registry()
    imports = {node_domain: version.since}
    domain = reg.domains.get(version.domain)
    if domain is not None and domain.extends is not None:
        imports.setdefault(reg.node_domain(domain.extends[0]), domain.extends[1])
    imports.setdefault("", 13)
    return imports


def _output_dtype(type_text: str | None) -> str | None:
    """A tensor output's numpy dtype name (what a model-level backend declares); a container's type text."""
    if type_text is None:
        return None
    from opset.dtypes import numpy_name, tensor_element

    element = tensor_element(type_text)
    if element is None:
        return type_text if "(" in type_text else None
    return numpy_name(element)
