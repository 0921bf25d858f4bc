"""Declines on purpose: Softmax with a negative `axis` stated, and Relu on int8 entirely (raises Unsupported);
everything else is the reference's."""

from __future__ import annotations

import numpy as np
import onnx

from conformance.backends.protocol import Unsupported
from tests.conformance.wrong_backends._base import AlteredReference


class Backend(AlteredReference):
    def alter(self, node: onnx.NodeProto, inputs: list[np.ndarray | None]) -> list[np.ndarray] | None:
        axis = next((a.i for a in node.attribute if a.name == "axis"), None)
        if node.op_type == "Softmax" and axis is not None and axis < 0:
            raise Unsupported(f"Softmax with a negative axis ({axis})")
        x = inputs[0]
        if node.op_type == "Relu" and x is not None and x.dtype == np.int8:
            raise Unsupported("Relu on int8")
        return None
