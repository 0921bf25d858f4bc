"""Input roles (docs/format.md, "Input roles"): what the registry states, what the cache carries, and the rule that an
input whose values decide an output's shape is a `parameter` unless it is listed below with the reason it is not."""

from __future__ import annotations

from collections.abc import Iterator

from opset.formula.formula import Formula
from opset.formula.nodes import Call, ForClause, Name, Node, Slice, child_nodes
from opset.load import load_registry
from opset.model import INPUT_ROLES, OpVersion

# Inputs whose values shape an output but which a model computes as it runs (data), keyed (domain, op, input): the
# rule's exceptions, each with its reason. An entry that matches no input is reported too.
SHAPING_DATA: dict[tuple[str, str, str], str] = {
    ("ai.onnx", "NonZero", "X"): "the op's point is to find where the data is non-zero",
    ("ai.onnx", "Unique", "X"): "the op's point is to find the data's distinct values",
    ("ai.onnx", "Compress", "condition"): "a mask computed from data (Where-like)",
    ("ai.onnx", "StringNormalizer", "X"): "strings whose stop words decide the output length",
    ("ai.onnx", "If", "cond"): "a run-time condition; the branch taken decides the shapes",
    ("ai.onnx", "Loop", "M"): "a trip count computed by the graph as often as written",
    ("ai.onnx", "Loop", "cond"): "a run-time condition",
    ("ai.onnx", "SequenceAt", "position"): "a position a Loop body computes",
    ("ai.onnx", "SequenceErase", "position"): "a position a Loop body computes",
    ("ai.onnx", "SequenceInsert", "position"): "a position a Loop body computes",
    ("com.microsoft", "Unique", "x"): "the op's point is to find the data's distinct values",
    ("com.microsoft", "BifurcationDetector", "src_tokens"): "tokens of the decoding loop",
    ("com.microsoft", "BifurcationDetector", "pred_tokens"): "tokens of the decoding loop",
    ("com.microsoft", "BifurcationDetector", "prev_suffix_match_idx"): "state of the decoding loop",
    ("com.microsoft", "DecoderMaskedMultiHeadAttention", "past_sequence_length"): "grows at every decoding step",
    ("com.microsoft", "MultiHeadAttention", "past_sequence_length"): "grows at every decoding step",
    ("com.microsoft", "GroupQueryAttention", "total_sequence_length"): "grows at every decoding step",
    ("com.microsoft", "DynamicSparseAttention", "total_sequence_length"): "grows at every decoding step",
    ("com.microsoft", "RemovePadding", "sequence_token_count"): "counted from the batch's attention mask",
}


def _value_reads(node: Node | Slice | ForClause) -> Iterator[str]:
    """Names of the inputs read by `value(NAME)` anywhere in a formula tree."""
    if isinstance(node, Call) and node.function == "value":
        yield from (arg.id for arg in node.args if isinstance(arg, Name))
    for child in child_nodes(node):
        yield from _value_reads(child)


def shaping_inputs(version: OpVersion) -> set[str]:
    """The inputs whose values an output's shape formula reads, directly or through a `let`."""
    formulas: list[Formula] = [p.formula for p in version.outputs if p.formula is not None]
    lets_read = {name for f in formulas for name in f.names if name in version.lets}
    formulas += [version.lets[name] for name in sorted(lets_read)]
    inputs = {p.name for p in version.inputs}
    return {name for f in formulas for name in _value_reads(f.tree)} & inputs


def test_every_shaping_input_is_a_parameter_or_a_listed_exception() -> None:
    registry = load_registry()
    wrong: list[str] = []
    used: set[tuple[str, str, str]] = set()
    for op in registry.ops.values():
        for version in op.versions:
            roles = {p.name: p.role for p in version.inputs}
            for name in sorted(shaping_inputs(version)):
                key = (op.domain, op.name, name)
                if key in SHAPING_DATA:
                    used.add(key)
                    assert roles[name] == "data", f"{version.signature} input '{name}' is listed as data"
                elif roles[name] != "parameter":
                    wrong.append(f"{version.location}: {version.signature} input '{name}' shapes an output through "
                                 f"value({name}) but its role is {roles[name]}: give it `role: parameter`")
    assert not wrong, "\n".join(wrong)
    assert not set(SHAPING_DATA) - used, f"exceptions that match no shaping input: {sorted(set(SHAPING_DATA) - used)}"


def test_roles_of_the_common_ops() -> None:
    registry = load_registry()

    def role(domain: str, op: str, opset: int, name: str) -> str:
        version = registry.resolve(domain, op, opset)
        return next(p.role for p in version.inputs if p.name == name)

    assert role("ai.onnx", "Reshape", 21, "shape") == "parameter"
    assert role("ai.onnx", "Reshape", 21, "data") == "data"
    assert role("ai.onnx", "Slice", 13, "starts") == "parameter"
    assert role("ai.onnx", "TopK", 11, "K") == "parameter"
    assert role("ai.onnx", "Resize", 19, "sizes") == "parameter"
    assert role("ai.onnx", "Conv", 22, "W") == "weight"
    assert role("ai.onnx", "BatchNormalization", 15, "input_mean") == "weight"
    assert role("ai.onnx", "LayerNormalization", 17, "Scale") == "weight"
    assert role("ai.onnx", "Gemm", 13, "B") == "data"  # docs/format.md: a general algebra op's inputs stay data
    assert role("com.microsoft", "MatMulNBits", 1, "B") == "weight"
    assert role("tengine", "Convolution", 1, "weight") == "weight"


def test_outputs_are_always_data() -> None:
    registry = load_registry()
    assert {p.role for op in registry.ops.values() for v in op.versions for p in v.outputs} == {"data"}
    assert {p.role for op in registry.ops.values() for v in op.versions for p in v.inputs} == set(INPUT_ROLES)


def test_cache_tables_carry_the_role() -> None:
    from opset.record_table import decode_registry, encode_registry

    registry = load_registry()
    decoded = decode_registry(encode_registry(registry))
    for key in (("ai.onnx", "Reshape"), ("ai.onnx", "Conv"), ("com.microsoft", "MatMulNBits")):
        before = [[p.role for p in v.inputs] for v in registry.ops[key].versions]
        after = [[p.role for p in v.inputs] for v in decoded.ops[key].versions]
        assert after == before and any("data" != r for roles in after for r in roles)
