"""Where `opset validate` accepts a model `onnx.checker.check_model(model, full_check=True)` rejects, and why: the
recorded readings of onnx's checker. Everywhere else the validator keeps onnx's verdict (a model onnx rejects is
rejected here too; tests/validate/test_onnx_verdicts.py holds the fuzz corpus and onnx's node suite to that).

A reading names the checker's message it concerns (a regular expression), the op whose node onnx refuses, which
sources take the model as the registry does, and a note saying why.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class CheckerReading:
    id: str
    message: str  # a regular expression over onnx's checker message
    op: str  # `domain::Op` of the node onnx's check refuses
    followed_by: tuple[str, ...]
    note: str

    def explains(self, message: str) -> bool:
        return re.search(self.message, message, re.DOTALL) is not None


CHECKER_READINGS: tuple[CheckerReading, ...] = (
    CheckerReading(
        "checker_r1",
        r"op_type:MeanVarianceNormalization.*op_type:Constant.*One and only one of the attributes",
        "ai.onnx::MeanVarianceNormalization",
        ("onnx.reference", "onnxruntime"),
        "onnx's full check infers MeanVarianceNormalization-13 through its function body, whose Constant takes the "
        "node's `axes` by reference: on a node without `axes` the Constant has no value and the check fails (onnx's "
        "own node test test_mvn). The op's text gives axes a default, [0, 2, 3], with which onnx.reference and "
        "onnxruntime run the node, and so does the registry."),
    CheckerReading(
        "checker_r2",
        r"Op registered for GroupNormalization is deprecated in domain_version of (18|19|20)\b",
        "ai.onnx::GroupNormalization",
        ("onnxruntime",),
        "onnx marks GroupNormalization-18 deprecated (version 21 applies scale and bias per channel, where 18's "
        "per-group ones were a mistake), so its checker refuses the op at opsets 18 to 20. Its text still defines "
        "version 18, onnxruntime runs it, and so does the registry (the op is not deprecated as a whole, as "
        "Upsample or Scatter are, whose nodes `opset validate` refuses past their deprecation: deprecated_op)."),
)


def checker_reading(message: str) -> CheckerReading | None:
    """The recorded reading that explains onnx's checker refusing a model with `message`, if one does."""
    return next((r for r in CHECKER_READINGS if r.explains(message)), None)
