"""Wrong on purpose: ai.onnx.ml Scaler as X * scale - offset, scaling before it offsets."""

from __future__ import annotations

import numpy as np
import onnx

from conformance.onnx_model import node_attributes
from tests.conformance.wrong_backends._base import AlteredReference


class Backend(AlteredReference):
    def alter(self, node: onnx.NodeProto, inputs: list[np.ndarray | None]) -> list[np.ndarray] | None:
        if node.op_type != "Scaler" or inputs[0] is None:
            return None
        given = node_attributes(node)
        x = inputs[0].astype(np.float64)
        return [(x * np.asarray(given["scale"]) - np.asarray(given["offset"])).astype(np.float32)]
