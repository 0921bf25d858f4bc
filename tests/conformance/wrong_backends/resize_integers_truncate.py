"""onnxruntime's and tract's reading of Resize on an integer X (registry reading resize_r6): the interpolated values
converted toward zero as a C cast does, after interpolating in float32 as tract does (so a whole value may come out
as 2.9999998 and convert to 2). Not wrong, only another reading: conform counts its cells "ambiguous"."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import onnx

from conformance.backends.protocol import Outer
from tests.conformance.wrong_backends._base import AlteredReference


class Backend(AlteredReference):
    def run(self, node: onnx.NodeProto, inputs: list[np.ndarray | None],
            opset_imports: Mapping[str, int] | None = None, outer: Outer | None = None) -> list[np.ndarray]:
        x = inputs[0]
        mode = next((a.s.decode() for a in node.attribute if a.name == "mode"), "nearest")
        if node.op_type != "Resize" or x is None or x.dtype.kind not in "iu" or mode == "nearest":
            return self.reference.run(node, inputs, opset_imports, outer)
        data = self.reference.run(node, [x.astype(np.float32), *inputs[1:]], opset_imports, outer)[0]
        info = np.iinfo(x.dtype)
        return [np.clip(np.trunc(data), info.min, info.max).astype(x.dtype)]
