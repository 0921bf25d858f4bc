"""Wrong on purpose: aborts the process on Relu, hangs on Sigmoid, is the reference elsewhere."""

from __future__ import annotations

import os
import time

import numpy as np
import onnx

from tests.conformance.wrong_backends._base import AlteredReference


class Backend(AlteredReference):
    def alter(self, node: onnx.NodeProto, inputs: list[np.ndarray | None]) -> list[np.ndarray] | None:
        if node.op_type == "Relu":
            os.abort()  # SIGABRT: the process dies like a segfaulting native backend
        if node.op_type == "Sigmoid":
            time.sleep(3600)
        return None
