"""Wrong on purpose: BatchNormalization and LayerNormalization of double inputs computed in float32 (every float64
input narrowed, the result widened back), where their precision policy asks double (a LayerNormalization's
stash_type=1 allows float32 for stage one only; stage two stays double, and so does every stage with stash_type=11)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import onnx
from onnx import helper

from conformance.backends.protocol import Outer
from tests.conformance.wrong_backends._base import AlteredReference

NARROWED = {"BatchNormalization", "LayerNormalization"}


class Backend(AlteredReference):
    def run(self, node: onnx.NodeProto, inputs: list[np.ndarray | None],
            opset_imports: Mapping[str, int] | None = None, outer: Outer | None = None) -> list[np.ndarray]:
        if node.op_type not in NARROWED or not any(x is not None and x.dtype == np.float64 for x in inputs):
            return self.reference.run(node, inputs, opset_imports, outer)
        narrowed = onnx.NodeProto()
        narrowed.CopyFrom(node)
        for a in narrowed.attribute:
            if a.name == "stash_type":
                a.CopyFrom(helper.make_attribute("stash_type", 1))
        outputs = self.reference.run(narrowed, [x.astype(np.float32) if x is not None and x.dtype == np.float64
                                                else x for x in inputs], opset_imports, outer)
        due = self.reference.run(node, inputs, opset_imports, outer)  # the types the outputs should have
        return [y.astype(d.dtype) for y, d in zip(outputs, due, strict=True)]
