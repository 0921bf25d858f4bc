"""Wrong on purpose: com.microsoft FusedConv applying LeakyRelu with the usual default slope 0.01 instead of the
node's activation_params[0]."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import onnx
from onnx import helper

from conformance.backends.protocol import Outer
from tests.conformance.wrong_backends._base import AlteredReference


class Backend(AlteredReference):
    def run(self, node: onnx.NodeProto, inputs: list[np.ndarray | None],
            opset_imports: Mapping[str, int] | None = None, outer: Outer | None = None) -> list[np.ndarray]:
        attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
        if node.op_type == "FusedConv" and attrs.get("activation") == b"LeakyRelu":
            altered = onnx.NodeProto()
            altered.CopyFrom(node)
            kept = [a for a in altered.attribute if a.name != "activation_params"]
            del altered.attribute[:]
            altered.attribute.extend([*kept, helper.make_attribute("activation_params", [0.01])])
            return self.reference.run(altered, inputs, opset_imports, outer)
        return self.reference.run(node, inputs, opset_imports, outer)
