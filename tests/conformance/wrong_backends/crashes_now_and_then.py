"""Wrong on purpose: the process dies on its 12th case, whatever it is (no one case is to blame)."""

from __future__ import annotations

import os

import numpy as np
import onnx

from tests.conformance.wrong_backends._base import AlteredReference


class Backend(AlteredReference):
    calls = 0

    def alter(self, node: onnx.NodeProto, inputs: list[np.ndarray | None]) -> list[np.ndarray] | None:
        Backend.calls += 1
        if Backend.calls == 12:
            os.abort()
        return None
