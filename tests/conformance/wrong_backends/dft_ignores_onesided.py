"""Wrong on purpose: DFT as if onesided were always 0 (an RFFT returns every bin, an IRFFT a complex signal)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import onnx

from tests.conformance.wrong_backends._base import AlteredReference


class Backend(AlteredReference):
    def run(self, node: onnx.NodeProto, inputs: list[np.ndarray | None],
            opset_imports: Mapping[str, int] | None = None) -> list[np.ndarray]:
        if node.op_type == "DFT":
            return self.run_without(node, inputs, "onesided", opset_imports)
        return self.reference.run(node, inputs, opset_imports)
