"""Wrong on purpose: raises on Abs the way OpenVINO does, the first line only saying where, the cause below it; and
on Neg a message of 10,000 characters."""

from __future__ import annotations

import numpy as np
import onnx

from tests.conformance.wrong_backends._base import AlteredReference

WHERE = "Exception from src/inference/src/cpp/infer_request.cpp:75:"
CAUSE = "Check 'element_type == ov::element::f32' failed at src/core/src/node.cpp:212: the cause is here"


class Backend(AlteredReference):
    def alter(self, node: onnx.NodeProto, inputs: list[np.ndarray | None]) -> list[np.ndarray] | None:
        if node.op_type == "Abs":
            raise RuntimeError(f"{WHERE}\n{CAUSE}\n")
        if node.op_type == "Neg":
            raise RuntimeError("x" * 10_000)
        return None
