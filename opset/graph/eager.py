"""Eager mode: an op function given numpy arrays checks its node as graph mode does, then evaluates it.

The evaluator is a backend (`run(node, inputs, opset_imports)`, as `conform --backend` takes): by default the
reference kernels of `conformance` (`conformance.backends.reference:ReferenceBackend`). `opset` sits below
`conformance` in the data flow and never imports it; the evaluator is found by that module path, as a plugin,
and `set_evaluator` puts another backend in its place (onnxruntime's, to debug a difference).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from opset.graph.check import check_node, node_proto, registry
from opset.graph.graph import output_labels
from opset.graph.value import Array, Value, element_of

if TYPE_CHECKING:
    from opset.model import OpVersion

REFERENCE = "conformance.backends.reference:ReferenceBackend"


class Evaluator(Protocol):
    def run(self, node: Any, inputs: list[Any], opset_imports: Mapping[str, int] | None = None) -> list[Any]: ...


_CHOSEN: list[Evaluator] = []


def set_evaluator(evaluator: Evaluator | None) -> None:
    """Evaluate eager calls with `evaluator` (None: the reference kernels again)."""
    _CHOSEN.clear()
    if evaluator is not None:
        _CHOSEN.append(evaluator)


def evaluator() -> Evaluator:
    if not _CHOSEN:
        module, _, name = REFERENCE.partition(":")
        try:
            factory = getattr(importlib.import_module(module), name)
        except ImportError as e:
            raise RuntimeError(f"eager mode needs the reference kernels ({REFERENCE}): {e}") from e
        _CHOSEN.append(factory())
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
    check_node(version, node_domain, values, attributes, labels)
    node = node_proto(version, node_domain, [v.label if v is not None else "" for v in values], labels, attributes)
    got = evaluator().run(node, list(inputs), {node_domain: version.since})
    return tuple(np.asarray(got[i]) for i in wanted)
