"""The per-op hint table (see `hints.py`): the ops whose valid cases are procedural by nature.

Every other op draws from its YAML (`domain` keys and `dims`, docs/format.md). Each entry here says why its YAML
cannot say it; remove an entry once the format can.
"""

from __future__ import annotations

from conformance.strategies.hint_attention import (
    ATTENTION_HINT,
    CAUSAL_CONV_HINT,
    LINEAR_ATTENTION_HINT,
    ROTARY_EMBEDDING_HINT,
)
from conformance.strategies.hint_control import FLEX_ATTENTION_HINT, IF_HINT, LOOP_HINT, SCAN_HINTS
from conformance.strategies.hint_linalg import (
    EINSUM_HINT,
)
from conformance.strategies.hint_ml import (
    CLASSIFIER_HINT,
    LINEAR_CLASSIFIER_HINT,
    LINEAR_REGRESSOR_HINT,
    REGRESSOR_HINT,
    SVM_CLASSIFIER_HINT,
    SVM_REGRESSOR_HINT,
    TREE_ENSEMBLE_HINT,
)
from conformance.strategies.hint_ms_attention import (
    ATTENTION_MS_HINT,
    DECODER_ATTENTION_HINT,
    DMMHA_HINT,
    DMSA_HINT,
    GQA_HINT,
    GRPB_HINT,
    LONGFORMER_HINT,
    MHA_HINT,
    PACKED_ATTENTION_HINT,
    PACKED_MHA_HINT,
    REMOVE_PADDING_HINT,
    RESTORE_PADDING_HINT,
    RPB_HINT,
)
from conformance.strategies.hint_ort_models import CAUSAL_CONV_HINT as ORT_CAUSAL_CONV_HINT
from conformance.strategies.hint_ort_models import GATED_DELTA_NET_HINT as ORT_GATED_DELTA_NET_HINT
from conformance.strategies.hint_ort_models import GROUP_ROUTER_HINT as ORT_GROUP_ROUTER_HINT
from conformance.strategies.hint_ort_models import LINEAR_ATTENTION_HINT as ORT_LINEAR_ATTENTION_HINT
from conformance.strategies.hint_ort_models import MOE_HINT
from conformance.strategies.hint_ort_models import NGRAM_HASH_HINT as ORT_NGRAM_HASH_HINT
from conformance.strategies.hint_ort_models import QMOE_HINT as ORT_QMOE_HINT
from conformance.strategies.hint_ort_models import SPARSE_ATTENTION_HINT as ORT_SPARSE_ATTENTION_HINT
from conformance.strategies.hint_ort_models import VARLEN_CAUSAL_CONV_HINT as ORT_VARLEN_CAUSAL_CONV_HINT
from conformance.strategies.hint_ort_models import VARLEN_NGRAM_HASH_HINT as ORT_VARLEN_NGRAM_HASH_HINT
from conformance.strategies.hint_qlinear import (
    QLINEAR_CONCAT_HINT,
)
from conformance.strategies.hint_qmatmul import (
    Q_ATTENTION_HINT,
)
from conformance.strategies.hint_random import MULTINOMIAL_HINT
from conformance.strategies.hint_regex import REGEX_FULL_MATCH_HINT
from conformance.strategies.hint_sequence import (
    SEQUENCE_MAP_HINT,
)
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
    # an attention cache layout: heads, head size, rotated width, caches and position ids decided in one draw
    ("ai.onnx", "RotaryEmbedding"): (ROTARY_EMBEDDING_HINT,),
    # an attention cache layout: GQA head groups, past/present caches and a mask of one of four ranks decided together
    ("ai.onnx", "Attention"): (ATTENTION_HINT,),
    # a recurrent state window: heads, state shapes and the update rule's gates decided together
    ("ai.onnx", "LinearAttention"): (LINEAR_ATTENTION_HINT,),
    # the state's length follows kernel and dilation, and its layout follows the input's: one draw decides them
    ("ai.onnx", "CausalConvWithState"): (CAUSAL_CONV_HINT,),
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
    # an attention cache layout: heads divide the projection, mask_index in one of four layouts inside P + S
    ("com.microsoft", "QAttention"): (Q_ATTENTION_HINT,),
    # its one variadic input interleaves (tensor, scale, zero point) triples, three kinds of value with shapes and
    # values of their own; a domain describes one kind of value per input
    ("com.microsoft", "QLinearConcat"): (QLINEAR_CONCAT_HINT,),
    # mixture of experts: expert counts, hidden/inter sizes, the fused gate/up width and k decided in one draw
    ("com.microsoft", "MoE"): (MOE_HINT,),
    # a recurrent state window: GQA or inverse GQA heads, the state window and the gates' shapes decided together
    ("com.microsoft", "LinearAttention"): (ORT_LINEAR_ATTENTION_HINT,),
    # layouts, dilation, window and state length decide the state's shape: one draw decides them
    ("com.microsoft", "CausalConvWithState"): (ORT_CAUSAL_CONV_HINT,),
    # packed weights: byte widths, scale and zero-point shapes follow the bits and the block size
    ("com.microsoft", "QMoE"): (ORT_QMOE_HINT,),
    # table lengths follow the n-gram order, and ids from a small vocabulary hit EOS: a tokenizer's layout
    ("com.microsoft", "NGramHashMapping"): (ORT_NGRAM_HASH_HINT,),
    ("com.microsoft", "VarlenNGramHashMapping"): (ORT_VARLEN_NGRAM_HASH_HINT,),  # as above, packed into requests
    # groups divide the experts and top_k stays within the kept groups: one draw decides the routing layout
    ("com.microsoft", "MoEGroupRouter"): (ORT_GROUP_ROUTER_HINT,),
    # packed requests: cumulative sequence lengths whose values cut the token axis; the state follows kernel/dilation
    ("com.microsoft", "VarlenCausalConvWithState"): (ORT_VARLEN_CAUSAL_CONV_HINT,),
    # head counts that group, requests by cu_seqlens or a uniform split, the gates the update rule needs, unit keys
    ("com.microsoft", "GatedDeltaNet"): (ORT_GATED_DELTA_NET_HINT,),
    # an attention cache layout: block layouts as CSR row pointers and columns, cache totals within the cache
    ("com.microsoft", "SparseAttention"): (ORT_SPARSE_ATTENTION_HINT,),
}

# an attention cache layout (each entry below): head counts dividing the hidden sizes, masks in one of the layouts the
# kernels accept with positions inside the key range, caches whose lengths agree with seqlens_k / past_sequence_length,
# GQA's head sizes of 8 or 16, buckets and gates that stay defined, packed tokens and their offsets
HINTS.update({
    ("com.microsoft", "Attention"): (ATTENTION_MS_HINT,),
    ("com.microsoft", "MultiHeadAttention"): (MHA_HINT,),
    ("com.microsoft", "GroupQueryAttention"): (GQA_HINT,),
    ("com.microsoft", "RelativePositionBias"): (RPB_HINT,),
    ("com.microsoft", "GatedRelativePositionBias"): (GRPB_HINT,),
    ("com.microsoft", "RemovePadding"): (REMOVE_PADDING_HINT,),
    ("com.microsoft", "RestorePadding"): (RESTORE_PADDING_HINT,),
    ("com.microsoft", "DecoderAttention"): (DECODER_ATTENTION_HINT,),
    ("com.microsoft", "DecoderMaskedMultiHeadAttention"): (DMMHA_HINT,),
    ("com.microsoft", "DecoderMaskedSelfAttention"): (DMSA_HINT,),
    ("com.microsoft", "LongformerAttention"): (LONGFORMER_HINT,),
    ("com.microsoft", "PackedAttention"): (PACKED_ATTENTION_HINT,),
    ("com.microsoft", "PackedMultiHeadAttention"): (PACKED_MHA_HINT,),
})


NO_HINT = OpHint()


def hint_for(version: OpVersion) -> OpHint:
    """The hint that covers `version` (by op and version range), or NO_HINT."""
    for hint in HINTS.get((version.domain, version.name), ()):
        if hint.since <= version.since and (hint.until is None or version.since <= hint.until):
            return hint
    return NO_HINT
