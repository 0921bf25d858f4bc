"""Wrong on purpose: the tree ensembles as if BRANCH_LT were BRANCH_LEQ (a row meeting a split with equality
goes the wrong way; every other row is right)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import onnx
from onnx import helper, numpy_helper

from tests.conformance.wrong_backends._base import AlteredReference

TREES = ("TreeEnsemble", "TreeEnsembleClassifier", "TreeEnsembleRegressor")
LEQ, LT = 0, 1  # TreeEnsemble's numbers


def _lt_as_leq(modes: onnx.AttributeProto) -> onnx.AttributeProto:
    if modes.type == onnx.AttributeProto.TENSOR:
        codes = numpy_helper.to_array(modes.t)
        return helper.make_attribute(modes.name, numpy_helper.from_array(np.where(codes == LT, LEQ, codes)
                                                                          .astype(codes.dtype)))
    return helper.make_attribute(modes.name, [b"BRANCH_LEQ" if m == b"BRANCH_LT" else m for m in modes.strings])


class Backend(AlteredReference):
    def run(self, node: onnx.NodeProto, inputs: list[np.ndarray | None],
            opset_imports: Mapping[str, int] | None = None) -> list[np.ndarray]:
        if node.op_type in TREES:
            altered = onnx.NodeProto()
            altered.CopyFrom(node)
            del altered.attribute[:]
            altered.attribute.extend(_lt_as_leq(a) if a.name == "nodes_modes" else a for a in node.attribute)
            node = altered
        return self.reference.run(node, inputs, opset_imports)
