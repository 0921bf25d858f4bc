"""The per-op hint table (see `hints.py`): the ops whose valid cases are procedural by nature.

Every other op draws from its YAML (`domain` keys and `dims`, docs/format.md). Each entry here says why its YAML
cannot say it; remove an entry once the format can.
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

# Each entry's comment says why the op's YAML cannot describe its valid inputs (docs/format.md, "Domains"): what the
# hint draws is procedural by nature (one draw decides the shapes, types and values of several inputs together, a
# body, a model, a text grammar) or ties values together element by element, which no domain key states.
HINTS: dict[tuple[str, str], tuple[OpHint, ...]] = {
    # the delta rules need keys of unit L2 norm per head: values tied across each head's elements, which no domain
    # key states (the shapes and gates alone would be dims and formulas)
    ("ai.onnx", "LinearAttention"): (LINEAR_ATTENTION_HINT,),
    # an equation is text whose labels decide every operand's rank and dims: a grammar a domain cannot draw from
    ("ai.onnx", "Einsum"): (EINSUM_HINT,),
    # control flow: a valid body from a small library (conformance.strategies.graph_bodies) and the outer values it
    # reads, with inputs that reach zero iterations, early stops, reversed and non-zero scan axes
    ("ai.onnx", "If"): (IF_HINT,),
    ("ai.onnx", "Loop"): (LOOP_HINT,),
    ("ai.onnx", "Scan"): SCAN_HINTS,
    ("ai.onnx", "SequenceMap"): (SEQUENCE_MAP_HINT,),  # control flow: a body over the samples and outer values
    ("ai.onnx.preview", "FlexAttention"): (FLEX_ATTENTION_HINT,),  # a score_mod body graph over the attention scores
    # a model in a node: trees, support vectors or coefficient rows that fit X and each other, drawn whole with X
    # (thresholds from X's values, NaN features, every mode, aggregate and post_transform)
    ("ai.onnx.ml", "TreeEnsemble"): (TREE_ENSEMBLE_HINT,),
    ("ai.onnx.ml", "TreeEnsembleClassifier"): (CLASSIFIER_HINT,),
    ("ai.onnx.ml", "TreeEnsembleRegressor"): (REGRESSOR_HINT,),
    ("ai.onnx.ml", "SVMClassifier"): (SVM_CLASSIFIER_HINT,),
    ("ai.onnx.ml", "SVMRegressor"): (SVM_REGRESSOR_HINT,),
    ("ai.onnx.ml", "LinearClassifier"): (LINEAR_CLASSIFIER_HINT,),
    ("ai.onnx.ml", "LinearRegressor"): (LINEAR_REGRESSOR_HINT,),
    # the edges, drawn so that no filter point falls on a bin boundary, where float and double computations pick
    # different bins: a test through the mel scale's logarithm and fractional powers, which the formulas cannot compute
    ("ai.onnx", "MelWeightMatrix"): (MEL_HINT,),
    # encoded bytes: a small random image Pillow encodes losslessly (PNG, BMP, TIFF, PPM): a file format, not values
    ("ai.onnx", "ImageDecoder"): (IMAGE_DECODER_HINT,),
    # logits with classes of probability 0 (-inf) now and then, never a whole row: a rule over a row's values together
    ("ai.onnx", "Multinomial"): (MULTINOMIAL_HINT,),
    # text: words that repeat across cases with stop words among them, strings joined at the drawn delimiter, a random
    # RE2 pattern with strings that match it or nearly do, n-grams taken from X's own windows
    ("ai.onnx", "StringNormalizer"): (STRING_NORMALIZER_HINT,),
    ("ai.onnx", "StringSplit"): (STRING_SPLIT_HINT,),
    ("ai.onnx", "RegexFullMatch"): (REGEX_FULL_MATCH_HINT,),
    ("ai.onnx", "TfIdfVectorizer"): (TF_IDF_VECTORIZER_HINT,),
    # its one variadic input interleaves (tensor, scale, zero point) triples, three kinds of value with shapes and
    # values of their own; a domain describes one kind of value per input
    ("com.microsoft", "QLinearConcat"): (QLINEAR_CONCAT_HINT,),
    # as ai.onnx's: keys of unit L2 norm per head for the delta rules (and a state window of 1 or 3 steps)
    ("com.microsoft", "LinearAttention"): (ORT_LINEAR_ATTENTION_HINT,),
    # packed weights: byte widths, scale and zero-point shapes follow the bits and the block size, and the integer
    # layout needs T1 = uint8 where T1 also allows float8e4m3fn (another layout): a binding no domain key fixes
    ("com.microsoft", "QMoE"): (ORT_QMOE_HINT,),
    # packed requests and a state of (K - 1) * dilation: expressible as VarlenNGramHashMapping's requests are (a helper
    # tuple and its running sums), not moved yet; tests/conformance/test_domains.py checks through this hint that a
    # dim a hint sets is not redrawn by a construction rule
    ("com.microsoft", "VarlenCausalConvWithState"): (ORT_VARLEN_CAUSAL_CONV_HINT,),
    # keys of unit L2 norm per head, also inside packed QKV's key columns: values tied across each head's elements
    ("com.microsoft", "GatedDeltaNet"): (ORT_GATED_DELTA_NET_HINT,),
    # block layouts as CSR: row pointers that are running sums of a random lower-triangular block mask (each diagonal
    # block kept) and the columns of its set blocks, padded with -1: a sparse matrix drawn whole
    ("com.microsoft", "SparseAttention"): (ORT_SPARSE_ATTENTION_HINT,),
}


NO_HINT = OpHint()


def hint_for(version: OpVersion) -> OpHint:
    """The hint that covers `version` (by op and version range), or NO_HINT."""
    for hint in HINTS.get((version.domain, version.name), ()):
        if hint.since <= version.since and (hint.until is None or version.since <= hint.until):
            return hint
    return NO_HINT
