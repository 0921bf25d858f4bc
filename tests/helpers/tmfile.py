"""What the `.tmfile` tests share: where the real models are, and an independent minimal walk of a TM2 file.

The models: `$OPSET_TMFILE_DIR`, else `../shared/data/tmfile` beside the repo. The walk (`walk`) is written
from tm2_format.h alone, without `opset.tmfile`, so the reader's numbers are checked against a second reading
instead of against themselves: counts, the subgraph's input/output nodes and the op ids.
"""

from __future__ import annotations

import os
import struct
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def tmfile_dir() -> Path:
    env = os.environ.get("OPSET_TMFILE_DIR")
    return Path(env) if env else ROOT.parent / "shared" / "data" / "tmfile"


SHARED = sorted(tmfile_dir().glob("*.tmfile"))
SHARED_IDS = [p.name for p in SHARED]


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
