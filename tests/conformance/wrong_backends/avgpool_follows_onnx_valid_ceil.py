"""Follows another reading on purpose: AveragePool 10/11 with auto_pad=VALID and ceil_mode=1 sized as onnx's
shape inference and onnxruntime size it (ceil((S - k) / s + 1) windows, the last one partial), not as the
registry (the seed's ceil((S - k + 1) / s)). `conform` must report such cells ambiguous, never failed."""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import onnx
from onnx import helper

from tests.conformance.wrong_backends._base import AlteredReference


def _attrs(node: onnx.NodeProto) -> dict[str, object]:
    return {a.name: helper.get_attribute_value(a) for a in node.attribute}


class Backend(AlteredReference):
    def run(self, node: onnx.NodeProto, inputs: list[np.ndarray | None],
            opset_imports: Mapping[str, int] | None = None) -> list[np.ndarray]:
        attrs = _attrs(node)
        opset = (opset_imports or {}).get("", 0)
        if (node.op_type == "AveragePool" and 10 <= opset < 19 and attrs.get("auto_pad") in (b"VALID", "VALID")
                and attrs.get("ceil_mode") == 1):
            return [_valid_ceil_average(inputs[0], attrs)]
        return self.reference.run(node, inputs, opset_imports)


def _valid_ceil_average(x: np.ndarray | None, attrs: dict[str, object]) -> np.ndarray:
    """Windows start every stride from 0 while they start inside the input; a partial last window averages
    the elements it covers."""
    assert x is not None
    kernel = list(attrs["kernel_shape"])  # type: ignore[call-overload]
    strides = list(attrs.get("strides") or [1] * len(kernel))  # type: ignore[call-overload]
    counts = [math.ceil((s - k) / st + 1) for s, k, st in zip(x.shape[2:], kernel, strides, strict=True)]
    y = np.zeros(x.shape[:2] + tuple(counts), dtype=x.dtype)
    for index in np.ndindex(*counts):
        window = tuple(slice(i * st, min(i * st + k, s))
                       for i, st, k, s in zip(index, strides, kernel, x.shape[2:], strict=True))
        y[(..., *index)] = x[(..., *window)].mean(axis=tuple(range(2, x.ndim)))
    return y
