"""Validate a `.tmfile` model against the registry: first what only the container can get wrong (op ids, parameter
blocks against the binary layouts, input and output counts, tensor, buffer and node references, buffer sizes
against dims), then, when the file's structure holds, the ONNX view (`onnx_view`) through the model validator
(attribute values, constraints, types, shapes propagated by the registry's formulas against the declared dims).

Every diagnostic names the Tengine node by its index in the file, its name and its op, whichever step found it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from opset.model import OpVersion
from opset.registry import Registry
from opset.tmfile.model import DATA_TYPES, INPUT_OP_ID, Model, Node, Subgraph
from opset.tmfile.node_params import flag_problems
from opset.tmfile.onnx_view import (
    ELEMENT_SIZES,
    TENGINE_OPSET,
    OnnxView,
    ViewError,
    element_count,
    to_onnx,
)
from opset.tmfile.params import struct_of, tengine_versions
from opset.tmfile.text import clean_text
from opset.validate.diagnostics import Diagnostic
from opset.validate.run import ValidationResult


def validate_tmfile(model: Model, registry: Registry) -> ValidationResult:
    """Diagnostics for `model`, and the validated type and shape of every value of its ONNX view."""
    graph = model.graph
    versions = tengine_versions(registry)
    diags = structure_diagnostics(graph, versions)
    if any(d.is_error for d in diags):
        return ValidationResult(diags, {}, {})  # the view would rest on references that do not hold
    try:
        view = to_onnx(model, registry, zero_fill=False)
    except ViewError as e:  # a problem the structural checks do not catch: report it, never crash
        return ValidationResult([*diags, Diagnostic("error", "tmfile_reference", str(e))], {}, {})
    from opset.validate import check_model

    result = check_model(view.model, None, registry, form=False)  # the view's form is not the file's
    located = [_located(d, view, graph) for d in result.diagnostics]
    return ValidationResult(diags + located, result.facts, result.inferred)


def _located(d: Diagnostic, view: OnnxView, graph: Subgraph) -> Diagnostic:
    """A view diagnostic named by the Tengine node it concerns (the view leaves out InputOp and Const nodes)."""
    if d.node_index is None or d.graph or not 0 <= d.node_index < len(view.node_indices):
        return d
    node = graph.nodes[view.node_indices[d.node_index]]
    return replace(d, node_index=node.index, node_name=clean_text(node.name))


def structure_diagnostics(graph: Subgraph, versions: dict[int, OpVersion]) -> list[Diagnostic]:
    """What the container itself can get wrong, one diagnostic per problem, in node order."""
    diags: list[Diagnostic] = []
    n_tensors = len(graph.tensors)
    for kind, indices in (("input", graph.inputs), ("output", graph.outputs)):
        for k in indices:
            if not 0 <= k < len(graph.nodes):
                diags.append(Diagnostic("error", "tmfile_reference",
                                        f"graph {kind} node {k} out of range ({len(graph.nodes)} nodes)"))
    for node in graph.nodes:
        version = versions.get(node.op_id)
        label = _label(node, version)

        def error(check: str, message: str, node: Node = node, label: str = label) -> None:
            diags.append(Diagnostic("error", check, message, node.index, clean_text(node.name), label))

        def warning(check: str, message: str, node: Node = node, label: str = label) -> None:
            diags.append(Diagnostic("warning", check, message, node.index, clean_text(node.name), label))

        for side, refs in (("input", node.inputs), ("output", node.outputs)):
            for pos, t in enumerate(refs):
                if not 0 <= t < n_tensors:
                    error("tmfile_reference", f"{side} {pos} names tensor {t}, out of range ({n_tensors} tensors)")
        if node.op_id == INPUT_OP_ID:
            if len(node.outputs) != 1 or node.inputs:
                error("arity", f"an InputOp has no inputs and one output, not {len(node.inputs)} and "
                      f"{len(node.outputs)}")
            continue
        if version is None:
            error("unknown_op", f"op id {node.op_id} is not a Tengine op of the registry")
            continue
        _check_params(node, version, error, warning)
        _check_counts(node, version, error)
        if version.name == "Const":
            _check_consts(node, graph, error)
    return diags


def _label(node: Node, version: OpVersion | None) -> str:
    if node.op_id == INPUT_OP_ID:
        return "tengine::InputOp"
    return version.signature if version is not None else f"tengine::op{node.op_id}"


_Error = Callable[[str, str], None]  # reports one problem of the node at hand: (check id, message)


def _check_params(node: Node, version: OpVersion, error: _Error, node_warning: _Error) -> None:
    assert version.tengine is not None
    for field, value in flag_problems(node.params, node.older_layout, version):
        node_warning("tmfile_flag", f"field {field} holds {value}: Tengine only tests it for nonzero, so it reads as 1 "
                     "(an older writer left the field uninitialised)")
    if node.older_layout is not None:
        older = version.tengine.older_layouts[node.older_layout]
        size = len(node.param_bytes or b"")
        node_warning("tmfile_params", f"parameter block of {size} bytes: the struct an older writer stored "
                     f"({older.doc or 'tengine.older_layouts'}), read with that layout")
        return
    if not version.tengine.layout:
        return  # an op without parameters: whatever the file points at is never read
    expected = struct_of(version.name, version.tengine).size  # sizeof the C struct, as the reader lays it out
    if node.param_bytes is None:
        error("tmfile_params", f"no parameter block; {version.tengine.param_struct} needs {expected} bytes")
    elif len(node.param_bytes) < expected:
        # files from older converters carry an older, shorter struct (resnet18_benchmark's Eltwise blocks stop after
        # caffe_flavor): the reader decodes the fields that are there and the others take their defaults
        missing = [f.name for f in version.tengine.layout if f.name not in node.params]
        where = node_warning if missing else error
        where("tmfile_params", f"parameter block of {len(node.param_bytes)} bytes, {version.tengine.param_struct} is "
              f"{expected}: an older, shorter struct; {', '.join(missing) or 'no field'} keep(s) the default")
    elif len(node.param_bytes) > expected:
        # the reader keeps a block that runs on to its operator whole: a newer writer's struct with more fields
        node_warning("tmfile_params", f"parameter block of {len(node.param_bytes)} bytes, "
                     f"{version.tengine.param_struct} is {expected}: a newer, longer struct; the bytes past the "
                     "layout are not read")


def _check_counts(node: Node, version: OpVersion, error: _Error) -> None:
    for side, params, count in (("inputs", version.inputs, len(node.inputs)),
                                ("outputs", version.outputs, len(node.outputs))):
        variadic = any(p.variadic for p in params)
        least = sum(1 for p in params if not p.optional and not p.variadic) + (1 if variadic else 0)
        most = None if variadic else len(params)
        if count < least or (most is not None and count > most):
            wanted = f"{least}" if most == least else f"{least} to {most}" if most is not None else f"{least} or more"
            error("arity", f"{count} {side}; {version.name} takes {wanted}")


def _check_consts(node: Node, graph: Subgraph, error: _Error) -> None:
    for t_index in node.outputs:
        if not 0 <= t_index < len(graph.tensors):
            continue  # reported as a reference already
        tensor = graph.tensors[t_index]
        where = f"tensor {t_index}" + (f" '{clean_text(tensor.name)}'" if tensor.name else "")
        if tensor.data_type not in DATA_TYPES:
            error("tmfile_tensor", f"{where} has the unknown data type {tensor.data_type}")
            continue
        if tensor.dims is None or any(d < 0 for d in tensor.dims):
            error("tmfile_tensor", f"{where} is a constant without fixed dims ({tensor.dims})")
            continue
        if not 0 <= tensor.buffer < len(graph.buffers):
            error("tmfile_reference", f"{where} names buffer {tensor.buffer}, out of range "
                  f"({len(graph.buffers)} buffers)")
            continue
        buffer = graph.buffers[tensor.buffer]
        expected = element_count(tensor.dims) * ELEMENT_SIZES[tensor.data_type]
        if buffer.size != expected:
            error("tmfile_buffer", f"{where} {list(tensor.dims)} {DATA_TYPES[tensor.data_type]} needs {expected} "
                  f"bytes; buffer {buffer.index} holds {buffer.size}")
        elif buffer.data is not None and len(buffer.data) != buffer.size:
            error("tmfile_buffer", f"buffer {buffer.index} says {buffer.size} bytes and carries {len(buffer.data)}")


__all__ = ["TENGINE_OPSET", "structure_diagnostics", "validate_tmfile"]
