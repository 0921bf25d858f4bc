"""`opset infer MODEL.tmfile -o OUT`: the model with every dim the registry infers written where the file has none.

A `.tmfile` stores dims per tensor (Tengine's converters declare some, often only the input's). The file is
validated (container checks, then the view through the model validator) and each tensor that a node computes and
that declares no dims gets the shape the validator knows, when it is fully known; declared dims are kept (a dim
that contradicts them is the validator's error, printed like every diagnostic). `OUT` ending in `.onnx` gets the
tengine-domain ONNX view instead, with every value's type and shape as value_info (as `opset infer` annotates an
ONNX model). Exit 0 when written, 2 when the file cannot be read or written.
"""

from __future__ import annotations

import sys
from dataclasses import replace

from opset.errors import RegistryError, one_line
from opset.registry import Registry
from opset.tmfile.model import Model, Tensor
from opset.tmfile.onnx_view import tensor_names
from opset.validate.facts import Facts


def with_inferred_dims(model: Model, facts: dict[str, Facts]) -> tuple[Model, int]:
    """`model` with the fully known shapes of `facts` as dims of the computed tensors that declare none; how many
    tensors got dims."""
    graph = model.graph
    names = tensor_names(graph)
    produced = {t for node in graph.nodes if node.op_name != "Const" for t in node.outputs}
    filled = 0
    tensors: list[Tensor] = []
    for t in graph.tensors:
        shape = facts[names[t.index]].shape if names[t.index] in facts else None
        dims = [d for d in shape if isinstance(d, int)] if shape is not None else []
        if t.dims is None and t.index in produced and shape is not None and len(dims) == len(shape):
            tensors.append(replace(t, dims=tuple(dims)))
            filled += 1
        else:
            tensors.append(t)
    return replace(model, subgraphs=(replace(graph, tensors=tuple(tensors)), *model.subgraphs[1:])), filled


def main_infer_tmfile(path: str, output: str, profile: str | None) -> int:
    from opset.load import load_registry
    from opset.tmfile import TmfileError, read_tmfile, write_tmfile
    from opset.tmfile.validate import validate_tmfile

    if profile is not None:
        print("error: --profile applies to ONNX models; a .tmfile is always the tengine domain", file=sys.stderr)
        return 2
    try:
        registry: Registry = load_registry()
    except RegistryError as e:
        print(e, file=sys.stderr)
        return 1
    try:
        model = read_tmfile(path, registry)
    except TmfileError as e:
        print(one_line(f"error: {e}"), file=sys.stderr)
        return 2
    result = validate_tmfile(model, registry)
    for d in result.diagnostics:
        print(one_line(f"{path}: {d}"), file=sys.stderr)
    try:
        if output.endswith(".onnx"):
            return _write_view(model, registry, result.facts, output)
        inferred, filled = with_inferred_dims(model, result.facts)
        data = write_tmfile(inferred, registry)
        with open(output, "wb") as f:
            f.write(data)
    except TmfileError as e:
        print(one_line(f"error: {output}: {e}"), file=sys.stderr)
        return 2
    except OSError as e:
        print(one_line(f"error: cannot write {output}: {e}"), file=sys.stderr)
        return 2
    print(f"{output}: dims inferred for {filled} tensor(s)")
    return 0


def _write_view(model: Model, registry: Registry, facts: dict[str, Facts], output: str) -> int:
    import onnx

    from opset.tmfile.onnx_view import ViewError, to_onnx
    from opset.validate.values import annotate

    try:
        view = to_onnx(model, registry).model
    except ViewError as e:
        print(one_line(f"error: {e}"), file=sys.stderr)
        return 2
    annotated = annotate(view, facts)
    onnx.save_model(annotated, output)
    print(f"{output}: {len(annotated.graph.value_info)} value_info entries (the tengine-domain view)")
    return 0
