"""Wrong on purpose: Bernoulli draws 1 with probability 1 - p (onnxruntime 1.32's bug), except where p is 0 or 1,
which it gets right. Every value is 0 or 1 and the certain ones are as due, so only the law test of conform's law
case can see it."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import onnx

from tests.conformance.wrong_backends._base import AlteredReference


class Backend(AlteredReference):
    def run(self, node: onnx.NodeProto, inputs: list[np.ndarray | None],
            opset_imports: Mapping[str, int] | None = None) -> list[np.ndarray]:
        if node.op_type != "Bernoulli" or inputs[0] is None:
            return self.reference.run(node, inputs, opset_imports)
        p = inputs[0]
        uncertain = (p > 0) & (p < 1)
        complement = np.where(uncertain, 1 - p.astype(np.float64), p.astype(np.float64)).astype(p.dtype)
        return self.reference.run(node, [complement, *inputs[1:]], opset_imports)
