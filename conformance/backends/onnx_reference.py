"""The `onnx-reference` backend: onnx.reference.ReferenceEvaluator on a one-node model."""

from __future__ import annotations

import numpy as np
import onnx

from conformance.containers import as_value


class OnnxReferenceBackend:
    name = "onnx-reference"  # its identity: the expectations file it is checked with

    def supports(self, domain: str, op: str, version: int, dtypes: list[str]) -> bool:
        return domain == "ai.onnx"

    def run(self, model: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        from onnx.reference import ReferenceEvaluator

        from conformance.backends.protocol import Unsupported

        try:
            evaluator = ReferenceEvaluator(model)
        except (NotImplementedError, KeyError) as e:
            raise Unsupported(f"onnx.reference cannot load the node: {e}") from e
        except RuntimeError as e:
            if "not implemented" in str(e).lower() or "unable to" in str(e).lower():
                raise Unsupported(str(e).splitlines()[0]) from e
            raise
        return [as_value(x) for x in evaluator.run(None, feeds)]
