"""A `.tmfile` (Tengine's TM2 container) as plain frozen records: what the file stores, nothing inferred.

Indices are the file's own: a node's `inputs`/`outputs` index the subgraph's `tensors`, a tensor's `buffer`
indexes its `buffers`, a subgraph's `inputs`/`outputs` index its `nodes`. `params` are the operator's parameter
block decoded through the registry's layout (`tengine.layout` of the op's YAML), keyed by field name in binary
order. `raw` keeps whatever the reader needs to write the file back byte for byte (object order, padding);
a model built by hand leaves it empty and the writer lays the file out in Tengine's own order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Tengine's element types (`TENGINE_DT_*`) and tensor kinds (`TENSOR_TYPE_*`), as the file stores them
DATA_TYPES: dict[int, str] = {0: "float32", 1: "float16", 2: "int8", 3: "uint8", 4: "int32", 5: "int16"}
TENSOR_KINDS: dict[int, str] = {0: "unknown", 1: "var", 2: "const", 3: "input", 4: "dep"}
LAYOUTS: dict[int, str] = {0: "NCHW", 1: "NHWC"}
# TM2_OPTYPE_INPUTOP: the node that marks a graph input (no parameters, no computation). Every real model has
# one; it is part of the container, not an operator, so the registry has no op for it and `Node.op_name` is None.
INPUT_OP_ID = 12


@dataclass(frozen=True)
class QuantParam:
    zero_point: int
    scale: float
    width: int


@dataclass(frozen=True)
class Tensor:
    index: int
    name: str | None
    buffer: int  # index into the subgraph's buffers (meaningful for const tensors)
    dims: tuple[int, ...] | None  # None: the file stores no dims
    layout: int
    kind: int  # TENSOR_KINDS
    data_type: int  # DATA_TYPES
    quant_params: tuple[QuantParam, ...] = ()


@dataclass(frozen=True)
class Buffer:
    index: int
    size: int  # the size field as stored
    data: bytes | None  # None: no data offset (benchmark graphs: Tengine fills zeros on load)


@dataclass(frozen=True)
class NodeAttr:
    name: str
    value: str
    attr_type: int


@dataclass(frozen=True)
class Node:
    index: int
    name: str | None
    op_id: int  # `operator_type`
    op_version: int  # `op_ver`
    op_name: str | None  # the registry's tengine op of that id; None when the id is unknown
    params: dict[str, Any]  # decoded parameter block, field name -> value (int, float, list or str)
    # the block as stored (None: no block), what `params` was decoded from; its vector and string offset fields
    # are zeroed (positions in the file, not values); a block longer than the layout (it ends at its operator, as
    # Tengine writes it) and an unknown op's block are kept whole: len(param_bytes) is the stored size
    param_bytes: bytes | None
    inputs: tuple[int, ...]
    outputs: tuple[int, ...]
    attrs: tuple[NodeAttr, ...] = ()
    dynamic_shape: bool = False
    # the block is an older writer's struct (`tengine.older_layouts[older_layout]` of the op, recognised by its size):
    # `params` then holds that struct's fields; None: today's struct (or a prefix of it)
    older_layout: int | None = None


@dataclass(frozen=True)
class SubInfo:
    subgraph_id: int
    input_wait_count: int
    data_type: int
    nodes: tuple[int, ...]
    input_tensors: tuple[int, ...]
    output_tensors: tuple[int, ...]
    device_name: str | None


@dataclass(frozen=True)
class Subgraph:
    index: int
    subgraph_id: int
    graph_layout: int
    model_layout: int
    inputs: tuple[int, ...]  # node indices, as the file stores them
    outputs: tuple[int, ...]  # node indices
    nodes: tuple[Node, ...]
    tensors: tuple[Tensor, ...]
    buffers: tuple[Buffer, ...]
    name: str | None
    sub_info: tuple[SubInfo, ...] = ()


@dataclass(frozen=True)
class Model:
    version: tuple[int, int, int]  # ver_main, ver_sub, ver_compile
    orig_format: int
    sub_format: int
    name: str | None
    subgraphs: tuple[Subgraph, ...]
    raw: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def graph(self) -> Subgraph:
        """The subgraph Tengine runs (the first; Tengine supports one)."""
        return self.subgraphs[0]
