"""Wrong on purpose: RandomNormal and RandomNormalLike draw with a standard deviation 1.2 times `scale`. Every value
is still a number and scale 0 still gives the mean, so only the law test of conform's law case can see it (a CDF gap
of about 0.04 against a bound of 0.019 at 20 000 draws)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import onnx
from onnx import helper

from tests.conformance.wrong_backends._base import AlteredReference

WIDER = 1.2


class Backend(AlteredReference):
    def run(self, node: onnx.NodeProto, inputs: list[np.ndarray | None],
            opset_imports: Mapping[str, int] | None = None) -> list[np.ndarray]:
        if node.op_type not in ("RandomNormal", "RandomNormalLike"):
            return self.reference.run(node, inputs, opset_imports)
        scale = next((helper.get_attribute_value(a) for a in node.attribute if a.name == "scale"), 1.0)
        wider = onnx.NodeProto()
        wider.CopyFrom(node)
        kept = [a for a in wider.attribute if a.name != "scale"]
        del wider.attribute[:]
        wider.attribute.extend([*kept, helper.make_attribute("scale", float(scale) * WIDER)])
        return self.reference.run(wider, inputs, opset_imports)
