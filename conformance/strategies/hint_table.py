"""The per-op hint table (see `hints.py`): the ops whose valid cases are procedural by nature.

Every other op draws from its YAML (`domain` keys and `dims`, docs/format.md). Each op here says in its YAML why the
format cannot say it (`drawn_by_hint`); remove the entry and the key once the format can.
"""

from __future__ import annotations

from conformance.strategies.hint_attention import LINEAR_ATTENTION_HINT
from conformance.strategies.hint_control import FLEX_ATTENTION_HINT, IF_HINT, LOOP_HINT, SCAN_HINTS
from conformance.strategies.hint_linalg import EINSUM_HINT
from conformance.strategies.hint_ml import (
    CLASSIFIER_HINT,
    LINEAR_CLASSIFIER_HINT,
    LINEAR_REGRESSOR_HINT,
    REGRESSOR_HINT,
    SVM_CLASSIFIER_HINT,
    SVM_REGRESSOR_HINT,
    TREE_ENSEMBLE_HINT,
)
from conformance.strategies.hint_ort_models import GATED_DELTA_NET_HINT as ORT_GATED_DELTA_NET_HINT
from conformance.strategies.hint_ort_models import LINEAR_ATTENTION_HINT as ORT_LINEAR_ATTENTION_HINT
from conformance.strategies.hint_ort_models import QMOE_HINT as ORT_QMOE_HINT
from conformance.strategies.hint_ort_models import SPARSE_ATTENTION_HINT as ORT_SPARSE_ATTENTION_HINT
from conformance.strategies.hint_ort_models import VARLEN_CAUSAL_CONV_HINT as ORT_VARLEN_CAUSAL_CONV_HINT
from conformance.strategies.hint_qlinear import QLINEAR_CONCAT_HINT
from conformance.strategies.hint_random import MULTINOMIAL_HINT
from conformance.strategies.hint_regex import REGEX_FULL_MATCH_HINT
from conformance.strategies.hint_sequence import SEQUENCE_MAP_HINT
from conformance.strategies.hint_signal import IMAGE_DECODER_HINT, MEL_HINT
from conformance.strategies.hint_strings import (
    STRING_NORMALIZER_HINT,
    STRING_SPLIT_HINT,
    TF_IDF_VECTORIZER_HINT,
)
from conformance.strategies.hints import OpHint
from opset.model import OpVersion

# Each op's YAML says why its cases are drawn here (its `drawn_by_hint`, docs/format.md; shown on its doc page):
# what the hint draws is procedural by nature (one draw decides the shapes, types and values of several inputs
# together, a body, a model, a text grammar) or ties values together element by element, which no domain key
# states. tests/conformance/test_domains.py holds the two lists equal.
HINTS: dict[tuple[str, str], tuple[OpHint, ...]] = {
    ("ai.onnx", "LinearAttention"): (LINEAR_ATTENTION_HINT,),
    ("ai.onnx", "Einsum"): (EINSUM_HINT,),
    ("ai.onnx", "If"): (IF_HINT,),
    ("ai.onnx", "Loop"): (LOOP_HINT,),
    ("ai.onnx", "Scan"): SCAN_HINTS,
    ("ai.onnx", "SequenceMap"): (SEQUENCE_MAP_HINT,),
    ("ai.onnx.preview", "FlexAttention"): (FLEX_ATTENTION_HINT,),
    ("ai.onnx.ml", "TreeEnsemble"): (TREE_ENSEMBLE_HINT,),
    ("ai.onnx.ml", "TreeEnsembleClassifier"): (CLASSIFIER_HINT,),
    ("ai.onnx.ml", "TreeEnsembleRegressor"): (REGRESSOR_HINT,),
    ("ai.onnx.ml", "SVMClassifier"): (SVM_CLASSIFIER_HINT,),
    ("ai.onnx.ml", "SVMRegressor"): (SVM_REGRESSOR_HINT,),
    ("ai.onnx.ml", "LinearClassifier"): (LINEAR_CLASSIFIER_HINT,),
    ("ai.onnx.ml", "LinearRegressor"): (LINEAR_REGRESSOR_HINT,),
    ("ai.onnx", "MelWeightMatrix"): (MEL_HINT,),
    ("ai.onnx", "ImageDecoder"): (IMAGE_DECODER_HINT,),
    ("ai.onnx", "Multinomial"): (MULTINOMIAL_HINT,),
    ("ai.onnx", "StringNormalizer"): (STRING_NORMALIZER_HINT,),
    ("ai.onnx", "StringSplit"): (STRING_SPLIT_HINT,),
    ("ai.onnx", "RegexFullMatch"): (REGEX_FULL_MATCH_HINT,),
    ("ai.onnx", "TfIdfVectorizer"): (TF_IDF_VECTORIZER_HINT,),
    ("com.microsoft", "QLinearConcat"): (QLINEAR_CONCAT_HINT,),
    ("com.microsoft", "LinearAttention"): (ORT_LINEAR_ATTENTION_HINT,),
    ("com.microsoft", "QMoE"): (ORT_QMOE_HINT,),
    ("com.microsoft", "VarlenCausalConvWithState"): (ORT_VARLEN_CAUSAL_CONV_HINT,),
    ("com.microsoft", "GatedDeltaNet"): (ORT_GATED_DELTA_NET_HINT,),
    ("com.microsoft", "SparseAttention"): (ORT_SPARSE_ATTENTION_HINT,),
}


NO_HINT = OpHint()


def hint_for(version: OpVersion) -> OpHint:
    """The hint that covers `version` (by op and version range), or NO_HINT."""
    for hint in HINTS.get((version.domain, version.name), ()):
        if hint.since <= version.since and (hint.until is None or version.since <= hint.until):
            return hint
    return NO_HINT
