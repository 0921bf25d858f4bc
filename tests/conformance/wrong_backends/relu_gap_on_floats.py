"""A known gap on purpose: Relu on float and float16 passes negative values through (an identity); every other case
is the reference's."""

from __future__ import annotations

import numpy as np
import onnx

from tests.conformance.wrong_backends._base import AlteredReference


class Backend(AlteredReference):
    def alter(self, node: onnx.NodeProto, inputs: list[np.ndarray | None]) -> list[np.ndarray] | None:
        x = inputs[0]
        if node.op_type == "Relu" and x is not None and x.dtype in (np.float16, np.float32):
            return [x.copy()]
        return None
