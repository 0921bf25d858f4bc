"""Wrong on purpose: raises a plain exception on Abs (a recorded failure, not unsupported)."""

from __future__ import annotations

import numpy as np
import onnx

from tests.conformance.wrong_backends._base import AlteredReference


class Backend(AlteredReference):
    def alter(self, node: onnx.NodeProto, inputs: list[np.ndarray | None]) -> list[np.ndarray] | None:
        if node.op_type == "Abs":
            raise ValueError("Abs exploded")
        return None
