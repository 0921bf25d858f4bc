"""Shared base of the deliberately wrong backends: the reference backend with one op broken."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import onnx

from conformance.backends.protocol import Outer
from conformance.backends.reference import ReferenceBackend


class AlteredReference:
    """Runs the reference, except `alter(node, inputs, opset_imports)` may answer for some nodes."""

    def __init__(self) -> None:
        self.reference = ReferenceBackend()

    def warm(self) -> None:
        self.reference.warm()

    def alter(self, node: onnx.NodeProto, inputs: list[np.ndarray | None]) -> list[np.ndarray] | None:
        return None

    def run(self, node: onnx.NodeProto, inputs: list[np.ndarray | None],
            opset_imports: Mapping[str, int] | None = None, outer: Outer | None = None) -> list[np.ndarray]:
        """`outer` (for a node with graph attributes): the enclosing values and this backend as the executor of
        the graphs' nodes, passed on to the reference."""
        altered = self.alter(node, inputs)
        if altered is not None:
            return altered
        return self.reference.run(node, inputs, opset_imports, outer)

    def run_without(self, node: onnx.NodeProto, inputs: list[np.ndarray | None], attribute: str,
                    opset_imports: Mapping[str, int] | None, outer: Outer | None = None) -> list[np.ndarray]:
        stripped = onnx.NodeProto()
        stripped.CopyFrom(node)
        kept = [a for a in stripped.attribute if a.name != attribute]
        del stripped.attribute[:]
        stripped.attribute.extend(kept)
        return self.reference.run(stripped, inputs, opset_imports, outer)
