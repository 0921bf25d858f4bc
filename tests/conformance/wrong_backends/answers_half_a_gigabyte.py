"""Wrong on purpose: answers Relu with a 512 MB array (zeros, allocated lazily: cheap to make, costly to ship)."""

from __future__ import annotations

import numpy as np
import onnx

from tests.conformance.wrong_backends._base import AlteredReference


class Backend(AlteredReference):
    def alter(self, node: onnx.NodeProto, inputs: list[np.ndarray | None]) -> list[np.ndarray] | None:
        if node.op_type == "Relu":
            return [np.zeros((8192, 8192), np.float64)]
        return None
