"""Not wrong, on purpose: what the precision policy allows and the reference does not compute. BatchNormalization of
float16 computed step by step in float16 itself ((x - mean) / sqrt(var + epsilon) * scale + B, every step rounded to
float16, as onnx.reference does), and LayerNormalization of double with stage one in float32 (stash_type=1) and
stage two in double. conform passes both (tests/conformance/test_precision.py)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import onnx
from onnx import helper

from conformance.backends.protocol import Outer
from tests.conformance.wrong_backends._base import AlteredReference


def _attribute(node: onnx.NodeProto, name: str, default: float) -> float:
    found = [helper.get_attribute_value(a) for a in node.attribute if a.name == name]
    return float(found[0]) if found else default


class Backend(AlteredReference):
    def run(self, node: onnx.NodeProto, inputs: list[np.ndarray | None],
            opset_imports: Mapping[str, int] | None = None, outer: Outer | None = None) -> list[np.ndarray]:
        x = inputs[0]
        if node.op_type == "BatchNormalization" and len(node.output) == 1 and x is not None \
                and x.dtype == np.float16 and all(p is not None and p.ndim == 1 for p in inputs[1:]) \
                and _attribute(node, "training_mode", 0) == 0:  # inference: the given mean and var
            scale, bias, mean, var = (p.reshape((-1,) + (1,) * (x.ndim - 2)) for p in inputs[1:] if p is not None)
            eps = np.float16(_attribute(node, "epsilon", 1e-5))
            return [((x - mean) / np.sqrt(var + eps) * scale + bias).astype(np.float16)]
        if node.op_type == "LayerNormalization" and x is not None and x.dtype == np.float64 \
                and _attribute(node, "stash_type", 1) == 1:
            r = x.ndim
            axis = int(_attribute(node, "axis", -1))
            axes = tuple(range(axis + r if axis < 0 else axis, r))
            xs = x.astype(np.float32)
            mean = xs.mean(axis=axes, keepdims=True, dtype=np.float32)
            deviation = xs - mean
            inv_std = np.float32(1) / np.sqrt((deviation * deviation).mean(axis=axes, keepdims=True, dtype=np.float32)
                                              + np.float32(_attribute(node, "epsilon", 1e-5)))
            y = (deviation * inv_std).astype(np.float64) * inputs[1]
            if len(inputs) > 2 and inputs[2] is not None:
                y = y + inputs[2]
            return [y, mean, inv_std][:len(node.output)]
        return self.reference.run(node, inputs, opset_imports, outer)
