"""Wrong on purpose: a Loop given a trip count M runs all M iterations whatever the body's condition output says
(as a backend that treats every Loop with M as a for loop). Loops with a cond input whose body turns it false
before M are the cases that show it: fewer iterations, other carried values, shorter scan outputs."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import onnx
from onnx import helper

from conformance.backends.protocol import Outer
from tests.conformance.wrong_backends._base import AlteredReference


def _always_going_on(body: onnx.GraphProto) -> onnx.GraphProto:
    """The body with its condition output replaced by a constant true."""
    changed = onnx.GraphProto()
    changed.CopyFrom(body)
    name = f"{body.name}_always_true"
    changed.node.append(helper.make_node("Constant", [], [name],
                                         value=helper.make_tensor(f"{name}_value", onnx.TensorProto.BOOL, [], [True])))
    changed.output[0].name = name
    return changed


class Backend(AlteredReference):
    def run(self, node: onnx.NodeProto, inputs: list[np.ndarray | None],
            opset_imports: Mapping[str, int] | None = None, outer: Outer | None = None) -> list[np.ndarray]:
        if node.op_type == "Loop" and inputs and inputs[0] is not None:
            changed = onnx.NodeProto()
            changed.CopyFrom(node)
            for attr in changed.attribute:
                if attr.name == "body":
                    attr.g.CopyFrom(_always_going_on(attr.g))
            return self.reference.run(changed, inputs, opset_imports, outer)
        return super().run(node, inputs, opset_imports, outer)
