"""Wrong on purpose: Dropout in training returns the complement of the mask it dropped by, so the mask says an
element was kept exactly where the output is 0 (inference, where nothing is random, stays right)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import onnx

from tests.conformance.wrong_backends._base import AlteredReference


def _training(node: onnx.NodeProto, inputs: list[np.ndarray | None], opset: int) -> bool:
    given = {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}
    if opset < 7:
        return not given.get("is_test", 0) and float(given.get("ratio", 0.5)) > 0
    if opset < 12:
        return False
    ratio = float(np.asarray(inputs[1]).reshape(-1)[0]) if len(inputs) > 1 and inputs[1] is not None else 0.5
    return len(inputs) > 2 and inputs[2] is not None and bool(np.asarray(inputs[2]).reshape(-1)[0]) and ratio > 0


class Backend(AlteredReference):
    def run(self, node: onnx.NodeProto, inputs: list[np.ndarray | None],
            opset_imports: Mapping[str, int] | None = None) -> list[np.ndarray]:
        outputs = self.reference.run(node, inputs, opset_imports)
        opset = (opset_imports or {}).get(node.domain, 0)
        if node.op_type == "Dropout" and len(outputs) > 1 and _training(node, inputs, opset):
            mask = outputs[1]
            outputs = [outputs[0], (mask == 0).astype(mask.dtype)]
        return outputs
