"""Wrong on purpose: Scan scans every input forward, ignoring scan_input_directions (opset 9 on) and directions
(opset 8), as a backend that never reverses a scan input. Cases that scan a reversed input of two or more
elements into an order-dependent state or a scan output show it."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import onnx

from conformance.backends.protocol import Outer
from tests.conformance.wrong_backends._base import AlteredReference


class Backend(AlteredReference):
    def run(self, node: onnx.NodeProto, inputs: list[np.ndarray | None],
            opset_imports: Mapping[str, int] | None = None, outer: Outer | None = None) -> list[np.ndarray]:
        if node.op_type == "Scan":
            attribute = "directions" if any(a.name == "directions" for a in node.attribute) else \
                "scan_input_directions"
            return self.run_without(node, inputs, attribute, opset_imports, outer)
        return super().run(node, inputs, opset_imports, outer)
