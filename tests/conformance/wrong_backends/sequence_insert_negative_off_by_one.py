"""Wrong on purpose: SequenceInsert counts a negative position one too far to the right (-1 appends instead of
inserting before the last tensor), as an implementation that adds n + 1 to a negative position would."""

from __future__ import annotations

import numpy as np
import onnx

from tests.conformance.wrong_backends._base import AlteredReference


class Backend(AlteredReference):
    def alter(self, node: onnx.NodeProto, inputs: list[np.ndarray | None]) -> list[np.ndarray] | None:
        if node.op_type != "SequenceInsert" or len(inputs) < 3 or inputs[2] is None:
            return None
        sequence, tensor, position = inputs[0], inputs[1], int(np.asarray(inputs[2]).reshape(-1)[0])
        if position >= 0:
            return None
        out = list(sequence)  # type: ignore[arg-type]
        out.insert(len(out) + position + 1, tensor)
        return [out]  # type: ignore[list-item]
