"""An independent, minimal walk of a TM2 file for the tests: counts, subgraph input/output nodes and op ids.

Written from tm2_format.h alone, without `opset.tmfile`, so the reader's numbers are checked against a second
reading instead of against themselves.
"""

from __future__ import annotations

import struct
from collections import Counter
from dataclasses import dataclass


@dataclass(frozen=True)
class Walked:
    nodes: int
    tensors: int
    buffers: int
    inputs: list[int]
    outputs: list[int]
    op_ids: Counter[int]


def _u32(data: bytes, at: int) -> int:
    value: int = struct.unpack_from("<I", data, at)[0]
    return value


def _vector(data: bytes, at: int) -> list[int]:
    count = _u32(data, at)
    return list(struct.unpack_from(f"<{count}I", data, at + 4))


def walk(data: bytes) -> Walked:
    root = _u32(data, 8)  # TM2_Header: 3 x uint16 versions, 2 padding bytes, root offset
    subgraph = _vector(data, _u32(data, root + 8))[0]  # TM2_Model: orig_format, sub_format, subgraphs, name
    # TM2_Subgraph: id, graph layout, model layout, inputs, outputs, nodes, tensors, buffers, ...
    inputs, outputs, nodes, tensors, buffers = struct.unpack_from("<5I", data, subgraph + 12)
    node_offsets = _vector(data, nodes)
    op_ids: Counter[int] = Counter()
    for node in node_offsets:
        operator = _u32(data, node + 12)  # TM2_Node: id, inputs, outputs, operator, ...
        op_ids[_u32(data, operator + 4)] += 1  # TM2_Operator: op_ver, operator_type, param
    return Walked(len(node_offsets), len(_vector(data, tensors)), len(_vector(data, buffers)),
                  _vector(data, inputs), _vector(data, outputs), op_ids)
