"""What onnx's checker requires of a model's form, beyond the registry: fields a model, graph, node or attribute must
have (onnx's `checker.cc`: `check_model`, `check_graph`, `check_node`, `check_attribute`, `check_value_info`), so
that `opset validate` rejects every model `onnx.checker.check_model(full_check=True)` rejects for its form.

Node and attribute problems are found once per distinct node (`node_form_problems`, kept with the node's record);
the rest once per model or graph.
"""

from __future__ import annotations

from collections.abc import Sequence, Set

from opset.dtypes import CODE_TO_ELEMENT
from opset.onnx_proto import pb
from opset.validate.diagnostics import Diagnostic
from opset.validate.facts import Facts

ONNX_IR_VERSION = pb.IR_VERSION  # the newest IR version onnx's checker knows
_INT32 = (-(2**31), 2**31 - 1)  # onnx's checker holds opset versions in an int

# an attribute's value fields and the type each one belongs to
_VALUE_FIELDS: dict[str, int] = {
    "f": pb.AttributeProto.FLOAT, "i": pb.AttributeProto.INT, "s": pb.AttributeProto.STRING,
    "t": pb.AttributeProto.TENSOR, "g": pb.AttributeProto.GRAPH, "tp": pb.AttributeProto.TYPE_PROTO,
    "sparse_tensor": pb.AttributeProto.SPARSE_TENSOR, "floats": pb.AttributeProto.FLOATS,
    "ints": pb.AttributeProto.INTS, "strings": pb.AttributeProto.STRINGS, "tensors": pb.AttributeProto.TENSORS,
    "graphs": pb.AttributeProto.GRAPHS, "sparse_tensors": pb.AttributeProto.SPARSE_TENSORS,
    "type_protos": pb.AttributeProto.TYPE_PROTOS,
}


def node_form_problems(node: pb.NodeProto, attrs: Sequence[pb.AttributeProto]) -> tuple[str, ...]:
    """A node's form: an op_type, an input or an output, and attributes each named once, typed, with at most one
    value field and that of their type."""
    problems: list[str] = []
    if not node.op_type:
        problems.append("the node has no op_type")
    if not node.input and not node.output:
        problems.append("the node has neither inputs nor outputs")
    seen: set[str] = set()
    for attr in attrs:
        name = attr.name
        if not name:
            problems.append("an attribute has no name")
        elif name in seen:
            problems.append(f"attribute '{name}' is given twice")
        seen.add(name)
        problems += _attribute_problems(attr)
    return tuple(problems)


def _attribute_problems(attr: pb.AttributeProto) -> list[str]:
    fields = [f.name for f, _ in attr.ListFields() if f.name in _VALUE_FIELDS]
    typed = attr.HasField("type")
    problems = []
    if not typed:
        problems.append(f"attribute '{attr.name}' has no type")
    if len(fields) > 1:
        problems.append(f"attribute '{attr.name}' holds several values ({', '.join(fields)})")
    elif fields and typed and _VALUE_FIELDS[fields[0]] != attr.type:
        known = attr.type in pb.AttributeProto.AttributeType.values()
        kind = pb.AttributeProto.AttributeType.Name(attr.type) if known else str(attr.type)
        problems.append(f"attribute '{attr.name}' is typed {kind} but holds a value in field '{fields[0]}'")
    return problems


def model_form(model: pb.ModelProto) -> list[Diagnostic]:
    """The model's own fields: its IR version, metadata keys and opset imports."""
    diags: list[Diagnostic] = []

    def error(message: str) -> None:
        diags.append(Diagnostic("error", "model_form", message))

    if model.ir_version > ONNX_IR_VERSION:
        error(f"ir_version {model.ir_version} is newer than onnx's ({ONNX_IR_VERSION})")
    keys = [entry.key for entry in model.metadata_props]
    if len(set(keys)) < len(keys):
        error("metadata_props holds a key twice")
    for imp in model.opset_import:
        if not _INT32[0] <= imp.version <= _INT32[1]:
            error(f"opset import {imp.domain or 'ai.onnx'} {imp.version} is out of range")
    if 0 < model.ir_version < 3 and model.opset_import:
        error(f"an IR version {model.ir_version} model cannot import opsets (IR 3 and later do)")
    return diags


def value_info_problem(vi: pb.ValueInfoProto) -> str | None:
    """What a main-graph input or output lacks of the type onnx requires: a type; a tensor's (and a sparse tensor's)
    element type and shape; a sequence's or optional's element type; a map's key and value types."""
    if not vi.HasField("type"):
        return "has no type"
    tp = vi.type
    kind = tp.WhichOneof("value")
    if kind in ("tensor_type", "sparse_tensor_type"):
        part = getattr(tp, kind)
        if not part.elem_type:  # absent, or UNDEFINED (0)
            return "has no element type"
        if part.elem_type not in CODE_TO_ELEMENT:
            return f"has element type {part.elem_type}, which onnx does not know"
        if not part.HasField("shape"):
            return "has no shape (a value of unknown rank is declared with no dims; onnx requires the field)"
    elif kind in ("sequence_type", "optional_type"):
        if not getattr(tp, kind).HasField("elem_type"):
            return "has no element type"
    elif kind == "map_type":
        if not tp.map_type.HasField("key_type") or not tp.map_type.HasField("value_type"):
            return "has no key or value type"
    elif kind == "opaque_type":
        if not tp.opaque_type.name:
            return "is an opaque type without a name"
    else:
        return "has a type of no kind"
    return None


def main_graph_form(graph: pb.GraphProto, inputs: Sequence[Facts], value_info: Sequence[Facts]) -> list[Diagnostic]:
    """Every input and output of the main graph declares a complete type, as onnx's checker requires (a subgraph's
    may leave parts out), and no value_info entry declares an element type onnx does not know (its shape inference
    refuses to merge one). `inputs` and `value_info` are what the validator read of those declarations, position by
    position: only one it could not read in full (no type, or a tensor without a shape) is looked at again."""
    diags: list[Diagnostic] = []

    def incomplete(facts: Facts) -> bool:
        return facts.type is None or (facts.shape is None and facts.type.startswith(("tensor(", "sparse_tensor(")))

    # (a type and a shape read, the common case, is complete: only the others are looked at)
    suspects = [("input", vi) for vi, facts in zip(graph.input, inputs, strict=True)
                if (facts.type is None or facts.shape is None) and incomplete(facts)]
    for what, vi in [*suspects, *(("output", vi) for vi in graph.output)]:
        problem = value_info_problem(vi)
        if problem is not None:
            diags.append(Diagnostic("error", "incomplete_type", f"graph {what} '{vi.name}' {problem}"))
    for vi, facts in zip(graph.value_info, value_info, strict=True):
        code = vi.type.tensor_type.elem_type if facts.type is None else 0
        if code and code not in CODE_TO_ELEMENT:
            diags.append(Diagnostic("error", "incomplete_type", f"value_info '{vi.name}' has element type {code}, "
                                                                 f"which onnx does not know"))
    return diags


def graph_form(graph: pb.GraphProto, path: str, ir_version: int, own: Set[str] | None, outer: Set[str],
               names: tuple[Sequence[str], Sequence[str]]) -> list[Diagnostic]:
    """A graph's own fields: a name; in IR 3 and earlier, every initializer also a graph input; for a subgraph
    (`own`: the names it defines itself, its inputs, initializers and node outputs), no output that only an enclosing
    graph defines (onnx's checker: "not an output of any node in graph"). `names`: the graph's input and initializer
    names, as the validator read them."""
    diags: list[Diagnostic] = []

    def error(message: str) -> None:
        diags.append(Diagnostic("error", "graph_form", message, graph=path))

    if not graph.name:
        error("the graph has no name")
    inputs, initializers = names
    if 0 < ir_version <= 3 and initializers and not set(inputs).issuperset(initializers):
        for name in sorted(set(initializers) - set(inputs)):
            error(f"initializer '{name}' is no graph input (IR {ir_version} models list initializers as inputs)")
    if own is not None:
        for vi in graph.output:
            if vi.name not in own and vi.name in outer:
                error(f"graph output '{vi.name}' is defined only in an enclosing graph (onnx wants it defined here: "
                      f"an Identity node gives it)")
    return diags
