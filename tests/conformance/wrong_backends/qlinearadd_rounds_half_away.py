"""Wrong on purpose: com.microsoft QLinearAdd rounding half away from zero (numpy's round-half-to-even is
onnxruntime's, from its float-to-int conversion in the current rounding mode)."""

from __future__ import annotations

import numpy as np
import onnx

from tests.conformance.wrong_backends._base import AlteredReference


def _zero_point(value: np.ndarray | None) -> float:
    return 0.0 if value is None else float(value.reshape(-1)[0])


class Backend(AlteredReference):
    def alter(self, node: onnx.NodeProto, inputs: list[np.ndarray | None]) -> list[np.ndarray] | None:
        if node.op_type != "QLinearAdd" or node.domain != "com.microsoft":
            return None
        a, sa, za, b, sb, zb, sc = inputs[:7]
        zc = inputs[7] if len(inputs) > 7 else None
        assert a is not None and b is not None and sa is not None and sb is not None and sc is not None
        ra, rb = np.float32(sa.reshape(-1)[0] / sc.reshape(-1)[0]), np.float32(sb.reshape(-1)[0] / sc.reshape(-1)[0])
        value = (ra * (a.astype(np.float32) - np.float32(_zero_point(za)))
                 + rb * (b.astype(np.float32) - np.float32(_zero_point(zb)))).astype(np.float64)
        rounded = np.sign(value) * np.floor(np.abs(value) + 0.5) + _zero_point(zc)
        info = np.iinfo(a.dtype)
        return [np.clip(rounded, info.min, info.max).astype(a.dtype)]
