"""Wrong on purpose: Resize's linear and cubic modes on an integer X convert the interpolated values by rounding
up (ceil), which neither the registry (half to even) nor its reading resize_r6 (toward zero, onnxruntime and tract)
gives. Before the reading's values were computed, any integer difference where resize_r6 holds passed as
"ambiguous"; an integer X that lands on whole numbers everywhere still passes, as it should."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import onnx

from conformance.backends.protocol import Outer
from tests.conformance.wrong_backends._base import AlteredReference


class Backend(AlteredReference):
    def run(self, node: onnx.NodeProto, inputs: list[np.ndarray | None],
            opset_imports: Mapping[str, int] | None = None, outer: Outer | None = None) -> list[np.ndarray]:
        x = inputs[0]
        mode = next((a.s.decode() for a in node.attribute if a.name == "mode"), "nearest")
        if node.op_type != "Resize" or x is None or x.dtype.kind not in "iu" or mode == "nearest":
            return self.reference.run(node, inputs, opset_imports, outer)
        data = self.reference.run(node, [x.astype(np.float64), *inputs[1:]], opset_imports, outer)[0]
        info = np.iinfo(x.dtype)
        return [np.clip(np.ceil(data), info.min, info.max).astype(x.dtype)]
