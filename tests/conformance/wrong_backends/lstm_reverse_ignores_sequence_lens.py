"""Wrong on purpose: LSTM whose backward pass ignores sequence_lens.

The backward direction (direction=reverse, or the second half of bidirectional) starts at the last padded step
instead of each entry's own last valid step, so the padding leaks into its states; Y is still zero past each
entry's length. The forward direction is right. onnx.reference computes every direction this way.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import onnx

from conformance.onnx_model import node_attributes
from tests.conformance.wrong_backends._base import AlteredReference

SEQUENCE_LENS = 4  # input position


class Backend(AlteredReference):
    def run(self, node: onnx.NodeProto, inputs: list[np.ndarray | None],
            opset_imports: Mapping[str, int] | None = None) -> list[np.ndarray]:
        right = self.reference.run(node, inputs, opset_imports)
        attrs = node_attributes(node)
        direction = attrs.get("direction", "forward")
        lengths = inputs[SEQUENCE_LENS] if len(inputs) > SEQUENCE_LENS else None
        if (node.op_type, node.domain) not in (("LSTM", ""), ("LSTM", "ai.onnx")) \
                or direction not in ("reverse", "bidirectional") or lengths is None:
            return right
        padded = self.reference.run(node, [None if i == SEQUENCE_LENS else x for i, x in enumerate(inputs)],
                                    opset_imports)
        backward = 0 if direction == "reverse" else 1
        batchwise = attrs.get("layout", 0) == 1
        out = [np.array(y) for y in right]
        for k, (y, wrong) in enumerate(zip(out, padded, strict=True)):
            if k == 0:  # Y: [seq, dirs, batch, hidden] or [batch, seq, dirs, hidden]
                steps = y.shape[1] if batchwise else y.shape[0]
                live = np.arange(steps)[:, None] < np.asarray(lengths).reshape(1, -1)  # [seq, batch]
                mask = live.T[:, :, None] if batchwise else live[:, :, None]
                if batchwise:
                    y[:, :, backward] = np.where(mask, wrong[:, :, backward], 0)
                else:
                    y[:, backward] = np.where(mask, wrong[:, backward], 0)
            elif batchwise:  # Y_h, Y_c: [dirs, batch, hidden] or [batch, dirs, hidden]
                y[:, backward] = wrong[:, backward]
            else:
                y[backward] = wrong[backward]
        return out
