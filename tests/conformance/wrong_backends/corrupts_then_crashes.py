"""Wrong on purpose, the way a native backend with a memory bug is: a Neg case leaves the process corrupted (it answers
right), and the next Relu in that process dies; run alone, every case passes."""

from __future__ import annotations

import os

import numpy as np
import onnx

from tests.conformance.wrong_backends._base import AlteredReference


class Backend(AlteredReference):
    corrupted = False

    def alter(self, node: onnx.NodeProto, inputs: list[np.ndarray | None]) -> list[np.ndarray] | None:
        if node.op_type == "Neg":
            Backend.corrupted = True
        elif node.op_type == "Relu" and Backend.corrupted:
            os.abort()  # SIGABRT, as a heap corrupted by the Neg case would end it
        return None
