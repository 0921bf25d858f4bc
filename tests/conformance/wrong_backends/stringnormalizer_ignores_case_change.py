"""Wrong on purpose: StringNormalizer as if case_change_action were always NONE (string values in the bundle)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import onnx

from tests.conformance.wrong_backends._base import AlteredReference


class Backend(AlteredReference):
    def run(self, node: onnx.NodeProto, inputs: list[np.ndarray | None],
            opset_imports: Mapping[str, int] | None = None) -> list[np.ndarray]:
        if node.op_type == "StringNormalizer":
            return self.run_without(node, inputs, "case_change_action", opset_imports)
        return self.reference.run(node, inputs, opset_imports)
