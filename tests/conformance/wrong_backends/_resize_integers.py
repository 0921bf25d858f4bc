"""Shared by the Resize-on-integers backends: the reference, except that linear and cubic Resize of an integer X
interpolates in `work` (a numpy float type) and turns the result into whole numbers with `whole` (then saturates)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import onnx

from conformance.backends.protocol import Outer
from tests.conformance.wrong_backends._base import AlteredReference


class ResizeIntegersConverted(AlteredReference):
    work: type[np.floating] = np.float64

    def whole(self, data: np.ndarray) -> np.ndarray:
        return np.rint(data)

    def run(self, node: onnx.NodeProto, inputs: list[np.ndarray | None],
            opset_imports: Mapping[str, int] | None = None, outer: Outer | None = None) -> list[np.ndarray]:
        x = inputs[0]
        mode = next((a.s.decode() for a in node.attribute if a.name == "mode"), "nearest")
        if node.op_type != "Resize" or x is None or x.dtype.kind not in "iu" or mode == "nearest":
            return self.reference.run(node, inputs, opset_imports, outer)
        data = self.reference.run(node, [x.astype(self.work), *inputs[1:]], opset_imports, outer)[0]
        info = np.iinfo(x.dtype)
        return [np.clip(self.whole(data), info.min, info.max).astype(x.dtype)]
