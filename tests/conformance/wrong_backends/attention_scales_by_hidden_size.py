"""Wrong on purpose: com.microsoft Attention scaling its scores by 1/sqrt(hidden size) instead of
1/sqrt(head size) when the node sets no `scale` (the same number only where num_heads is 1)."""

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
        weights = inputs[1] if len(inputs) > 1 else None
        if node.domain == "com.microsoft" and node.op_type == "Attention" and "scale" not in attrs \
                and weights is not None:
            sizes = attrs.get("qkv_hidden_sizes") or [weights.shape[1] // 3] * 3
            altered = onnx.NodeProto()
            altered.CopyFrom(node)
            altered.attribute.append(helper.make_attribute("scale", 1.0 / float(np.sqrt(sizes[0]))))
            return self.reference.run(altered, inputs, opset_imports, outer)
        return self.reference.run(node, inputs, opset_imports, outer)
