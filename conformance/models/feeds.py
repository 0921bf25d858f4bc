"""Feeds checked against a model's declared graph inputs before a node runs.

Every feed must name a graph input, have the declared type (a tensor's element type, or the sequence / map /
optional it is declared as) and, for a tensor with a declared shape, its rank and every fixed dim; a symbolic dim
(`dim_param`) takes the same size wherever it appears, across all the feeds and the sizes given beforehand
(`opset run --dim`). Without this an int64 array fed to a float input runs a hundred nodes and dies in a numpy
ufunc, and a wrong shape dies at whichever node first notices. Plain Python numbers inside a map (a dict of floats
for a map(string, tensor(float)) input, as onnxruntime takes it) become the declared element type first
(`with_declared_scalars`); a numpy value keeps its own type and is refused when it is another.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import onnx

from conformance.containers import type_fits, value_type, with_declared_type
from conformance.models.graphs import ModelRunError
from opset.dtypes import proto_type_text


class FeedError(ModelRunError):
    """Feeds that do not fit the model's declared inputs; `problems` lists each, one line apiece."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("; ".join(problems))


def graph_inputs(model: onnx.ModelProto) -> list[onnx.ValueInfoProto]:
    """The graph inputs a caller feeds: the declared inputs that no initializer gives a value to."""
    initialized = {t.name for t in model.graph.initializer}
    return [i for i in model.graph.input if i.name not in initialized]


def symbolic_dims(model: onnx.ModelProto) -> list[str]:
    """The `dim_param` names of the graph inputs' declared shapes, in order of first appearance."""
    seen: dict[str, None] = {}
    for vi in graph_inputs(model):
        if vi.type.HasField("tensor_type") and vi.type.tensor_type.HasField("shape"):
            for d in vi.type.tensor_type.shape.dim:
                if d.HasField("dim_param") and d.dim_param:
                    seen.setdefault(d.dim_param, None)
    return list(seen)


def with_declared_scalars(model: onnx.ModelProto, feeds: Mapping[str, Any]) -> dict[str, Any]:
    """`feeds` with the plain Python numbers inside each map (also in a sequence or optional of maps) as numpy
    scalars of the element type its graph input declares, where the number is of that kind
    (`conformance.containers.with_declared_type`); every other value as it is."""
    declared = {vi.name: proto_type_text(vi.type) for vi in graph_inputs(model) if vi.HasField("type")}
    return {name: with_declared_type(value, declared.get(name)) if isinstance(value, dict | list) else value
            for name, value in feeds.items()}


def check_feeds(model: onnx.ModelProto, feeds: Mapping[str, Any], dims: Mapping[str, int] | None = None, *,
                all_given: bool = True) -> dict[str, int]:
    """The symbolic dims' sizes the feeds bind (with `dims`); raises FeedError naming every feed that does not fit,
    and, with `all_given`, every graph input without a feed."""
    declared = {vi.name: vi for vi in graph_inputs(model)}
    problems: list[str] = []
    known = symbolic_dims(model)
    unknown_dims = [n for n in (dims or {}) if n not in known]
    if unknown_dims:
        problems.append(f"--dim {', '.join(unknown_dims)}: no graph input has such a dim (its symbolic dims: "
                        f"{', '.join(known) or 'none'})")
    bound: dict[str, tuple[int, str]] = {n: (size, "--dim") for n, size in (dims or {}).items() if n in known}
    for name, value in feeds.items():
        vi = declared.get(name)
        if vi is None:
            problems.append(f"'{name}' is not an input of the graph (inputs: {', '.join(declared) or 'none'})")
            continue
        wrong_type = _type_problems(name, vi, value)
        problems += wrong_type
        if not wrong_type and vi.type.HasField("tensor_type") and vi.type.tensor_type.HasField("shape"):
            problems += _shape_problems(name, vi.type.tensor_type.shape, np.shape(value), bound)
    missing = [n for n in declared if n not in feeds]
    if missing and all_given:
        problems.append(f"no value given for graph input(s) {', '.join(missing)}")
    if problems:
        raise FeedError(problems)
    return {n: size for n, (size, _) in bound.items()}


def _type_problems(name: str, vi: onnx.ValueInfoProto, value: Any) -> list[str]:
    if not vi.HasField("type") or vi.type.WhichOneof("value") is None:
        return []  # declared without a type: anything goes, as in onnxruntime
    want = proto_type_text(vi.type)
    if want is None:
        return []
    if vi.type.HasField("tensor_type") and not isinstance(value, np.ndarray | np.generic):
        return [f"input '{name}' is declared {want}, but its value is a {type(value).__name__}, not an array"]
    if type_fits(value, want):
        return []
    shown = value_type(value) or type(value).__name__
    if isinstance(value, np.ndarray | np.generic):
        shown += f" (numpy {np.asarray(value).dtype})"
    return [f"input '{name}' is declared {want}, but its value is {shown}"]


def _shape_problems(name: str, shape: onnx.TensorShapeProto, got: tuple[int, ...],
                    bound: dict[str, tuple[int, str]]) -> list[str]:
    dims = list(shape.dim)
    declared = [d.dim_value if d.HasField("dim_value") else (d.dim_param or "?") for d in dims]
    if len(got) != len(dims):
        return [f"input '{name}' is declared with rank {len(dims)} {declared}, but its value has shape {list(got)}"]
    problems = []
    for axis, (d, size) in enumerate(zip(dims, got, strict=True)):
        if d.HasField("dim_value") and d.dim_value != size:
            problems.append(f"input '{name}' dim {axis} is declared {d.dim_value}, but its value has {size} "
                            f"(shape {list(got)}, declared {declared})")
        elif d.HasField("dim_param") and d.dim_param:
            first = bound.setdefault(d.dim_param, (size, f"'{name}' dim {axis}"))
            if first[0] != size:
                problems.append(f"symbolic dim '{d.dim_param}' is {first[0]} by {first[1]} but {size} in input "
                                f"'{name}' dim {axis} (shape {list(got)})")
    return problems
