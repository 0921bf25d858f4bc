"""Wrong on purpose: ai.onnx.modified Relu6 clipping at 5 instead of 6."""

from __future__ import annotations

import numpy as np
import onnx

from tests.conformance.wrong_backends._base import AlteredReference


class Backend(AlteredReference):
    def alter(self, node: onnx.NodeProto, inputs: list[np.ndarray | None]) -> list[np.ndarray] | None:
        x = inputs[0]
        if node.op_type == "Relu6" and x is not None:
            return [np.clip(x, 0, 5).astype(x.dtype)]
        return None
