"""Model-level backends that, like tract or onnx2torch, compile a Reshape only when its shape is an initializer
(`conform --constant-inputs`): one right, one wrong on purpose. They run the model on the reference kernels."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx

from conformance.models import run_model


def _check_constant_shape(model: onnx.ModelProto) -> None:
    node = model.graph.node[0]
    constants = {t.name for t in model.graph.initializer}
    if node.op_type == "Reshape" and len(node.input) > 1 and node.input[1] not in constants:
        raise RuntimeError(f"shape input '{node.input[1]}' is variable: this backend compiles constant shapes only")


class NeedsConstantShape:
    """Right, given the shape as a constant; fails otherwise (the run was not told what it needs)."""

    name = "needs-constant-shape"

    def supports(self, domain: str, op: str, version: int, dtypes: list[str]) -> bool:
        return domain == "ai.onnx" and op == "Reshape" and "string" not in dtypes

    def run(self, model: onnx.ModelProto, feeds: dict[str, Any]) -> list[Any]:
        _check_constant_shape(model)
        outputs = run_model(model, feeds)
        return [outputs[o.name] for o in model.graph.output]


class AsksForParams(NeedsConstantShape):
    """The same, saying what it needs: `--constant-inputs auto` (the default) takes its word."""

    constant_inputs = "params"


class ReversesData(AsksForParams):
    """Wrong on purpose: reshapes right, but the values come out reversed."""

    def run(self, model: onnx.ModelProto, feeds: dict[str, Any]) -> list[Any]:
        outputs = super().run(model, feeds)
        return [np.ascontiguousarray(np.flip(y.reshape(-1)).reshape(y.shape)) for y in outputs]
