"""Graph mode: write a node over graph values, checked at once; numpy arrays given as inputs become constants."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from opset.graph.check import check_node
from opset.graph.value import Array, Node, Value, element_of

if TYPE_CHECKING:
    from opset.model import OpVersion

MAX_KNOWN = 4096  # int constants up to this size carry their values for the formulas (shapes, axes)
_CONSTANTS = itertools.count()


def constant(array: Array | Sequence[Any] | float, name: str | None = None) -> Value:
    """A constant value (an initializer of the model), from a numpy array or anything numpy turns into one."""
    data = np.asarray(array)
    if name is not None and not name:
        raise ValueError("a constant's name may not be empty")
    known = None
    if data.dtype.kind in "iu" and data.size <= MAX_KNOWN:
        known = tuple(int(x) for x in data.reshape(-1))
    dims = tuple(int(d) for d in data.shape)
    label = name or f"constant#{next(_CONSTANTS)}"
    return Value(f"tensor({element_of(data)})", dims, label, name=name, array=data, known=known)


def write_node(version: OpVersion, inputs: Sequence[Any], attributes: Mapping[str, Any],
               wanted: tuple[int, ...]) -> tuple[Value, ...]:
    """The node's values for the outputs `wanted`, after the validator's node check (raises BuildError)."""
    from opset.graph.check import registry

    values: list[Value | None] = []
    for position, x in enumerate(inputs):
        if x is None or isinstance(x, Value):
            values.append(x)
        elif isinstance(x, np.ndarray):
            values.append(constant(x))
        else:
            raise TypeError(f"{version.signature}: input {position} is a {type(x).__name__}, not a graph value or "
                            f"a numpy array")
    node = Node(version.domain, version.name, version.since, tuple(values), dict(attributes))
    labels = output_labels(version, wanted, f"{version.name}#{node.serial}:")
    node_domain = registry().node_domain(version.domain)
    inferred = check_node(version, node_domain, values, attributes, labels)
    for position in wanted:
        type_, dims, known = inferred[position]
        node.outputs.append(Value(type_, dims, labels[position], producer=node, index=position, known=known))
    return tuple(node.outputs)


def output_labels(version: OpVersion, wanted: tuple[int, ...], prefix: str) -> list[str]:
    """Per node output position up to the last one wanted: `prefix` and the output's name ("" where not wanted;
    a variadic output's values numbered)."""
    labels = []
    for i in range(max(wanted) + 1):
        if i not in wanted:
            labels.append("")
        elif i < len(version.outputs) and not version.outputs[i].variadic:
            labels.append(prefix + version.outputs[i].name)
        else:
            labels.append(f"{prefix}{version.outputs[-1].name}_{i}")
    return labels
