"""Write a `Model` as a `.tmfile` (TM2 container, version as the model says).

Objects are laid out the way Tengine's writer (`tools/save_graph`) lays them out: children before the object
that points at them, each struct at a multiple of 4, string text and buffer data unaligned just before their
TM2_String / TM2_Buffer, in the order node by node (name, input and output tensor vectors, parameter vectors
and strings, parameter struct, operator, node), the node vector, tensor by tensor (name, dims, quantisation
parameters, tensor), the tensor vector, buffer by buffer (data, buffer), the buffer vector, the subgraph's
input and output node vectors, the subgraph, the subgraph vector, the root table, and the header at 0. A model
name, which today's Tengine writer no longer stores, goes first, where the older writer put it.

Byte for byte: a model read from a file remembers where each object was (`Model.raw["objects"]`) and the
file's bytes (`Model.raw["image"]`). When the model still has exactly those objects with the same sizes, the
writer encodes every field again and puts each object back at its old offset over a copy of the old bytes, so
the bytes no field covers (C struct padding and alignment gaps, which Tengine's writer leaves uninitialised and
which are not zero in real files) stay as they were and `write_tmfile(read_tmfile(f)) == f`. Otherwise (a
model built by hand, or one whose objects were added, removed or resized) it lays the file out afresh as above
with zero padding (keeping the header's two padding bytes from `raw["header_pad"]`), and
`read_tmfile(write_tmfile(m)) == m` holds instead, with one exception: a damaged file whose objects overlap
(a vector whose count runs into the next struct) reads, but a fresh layout separates the objects, so the values
the reader took from the overlap are not what it reads back.

Tengine's older writer stored a 36-byte TM2_Subgraph (no sub-info offset); a model read from such a file keeps
that size when it has no sub-infos, and a model built by hand gets today's 40 bytes.
"""

from __future__ import annotations

import struct
from collections.abc import Mapping, Sequence
from typing import Any

from opset.tmfile.binary import NOT_SET, TmfileError, align4
from opset.tmfile.model import Model, Node, Subgraph, SubInfo, Tensor
from opset.tmfile.params import OFFSET_CTYPES, ParamStruct, encode_scalars
from opset.tmfile.reader import (
    ATTR_SIZE,
    BUFFER_SIZE,
    HEADER_SIZE,
    MODEL_SIZE,
    NODE_SIZE,
    OLD_SUBGRAPH_SIZE,
    OPERATOR_SIZE,
    QUANT_SIZE,
    STRING_SIZE,
    SUBGRAPH_SIZE,
    SUBINFO_SIZE,
    TENSOR_SIZE,
    Key,
)

MAX_OUTPUT = 1 << 32  # 32-bit offsets

Pieces = Sequence[tuple[int, bytes]]


class _Relayout(Exception):
    """The model's objects no longer match the file it was read from: lay it out afresh."""


def _pack(fmt: str, values: Sequence[Any], what: str) -> bytes:
    try:
        return struct.pack("<" + fmt, *values)
    except (struct.error, TypeError) as e:
        raise TmfileError(f"{what}: {values!r} cannot be stored as {fmt} ({e})") from None


class _Out:
    """Where objects go: appended in order (fresh) or put back at their old offsets (patch)."""

    def __init__(self, image: bytes | None, objects: Mapping[Key, tuple[int, int]] | None) -> None:
        self.patch = image is not None and objects is not None
        self.objects = objects or {}
        self.buf = bytearray(image) if self.patch and image is not None else bytearray(HEADER_SIZE)
        self.pos = HEADER_SIZE
        self.emitted: set[Key] = set()

    def put(self, key: Key, size: int, pieces: Pieces, *, align: bool = True, at: int | None = None) -> int:
        """Place an object of `size` bytes made of `pieces` (relative offset, bytes); return its offset.
        `at` fixes the offset (the header, at 0, whose room is reserved from the start)."""
        self.emitted.add(key)
        if at is not None and not self.patch:
            offset = at
        elif self.patch:
            where = self.objects.get(key)
            if where is None or where[1] != size:
                raise _Relayout
            offset = where[0]
        else:
            offset = align4(self.pos) if align else self.pos
            end = offset + size
            if end >= MAX_OUTPUT:
                raise TmfileError(f"{key[0]}: the file would pass 4 GiB, beyond what 32-bit offsets address")
            self.buf.extend(bytes(end - len(self.buf)))
            self.pos = end
        for rel, data in pieces:
            self.buf[offset + rel:offset + rel + len(data)] = data
        return offset


class _Writer:
    def __init__(self, out: _Out, structs: Mapping[int, ParamStruct], raw: Mapping[str, Any]) -> None:
        self.out = out
        self.structs = structs
        self.raw = raw

    def string(self, key: Key, text: str | None) -> int:
        if text is None:
            return NOT_SET
        data = text.encode("utf-8", errors="surrogateescape") + b"\0"
        data_offset = self.out.put((*key, "data"), len(data), [(0, data)], align=False)
        return self.out.put(key, STRING_SIZE, [(0, _pack("II", (len(data), data_offset), "string"))])

    def vector(self, key: Key, fmt: str, values: Sequence[Any] | None, what: str) -> int:
        if values is None:
            return NOT_SET
        body = _pack(f"I{len(values)}{fmt}", (len(values), *values), what)
        return self.out.put(key, len(body), [(0, body)])

    def model(self, m: Model) -> None:
        s_mname = self.string(("mname",), m.name)
        sg_offsets = [self.subgraph(i, sg) for i, sg in enumerate(m.subgraphs)]
        vo_subgraphs = self.vector(("subgraphs",), "I", sg_offsets, "subgraph vector")
        root = self.out.put(("model",), MODEL_SIZE, [
            (0, _pack("iiII", (m.orig_format, m.sub_format, vo_subgraphs, s_mname), "root table"))])
        main, sub, compile_ = m.version
        pad = int(self.raw.get("header_pad", 0))
        self.out.put(("header",), HEADER_SIZE, [(0, _pack("HHH", (main, sub, compile_), "header: version")),
                                                 (6, _pack("H", (pad,), "header: padding")),
                                                 (8, _pack("I", (root,), "header"))], at=0)

    def subgraph(self, s: int, sg: Subgraph) -> int:
        node_offsets = [self.node(s, n) for n in sg.nodes]
        vo_nodes = self.vector(("nodes", s), "I", node_offsets, f"subgraph {s}: node vector")
        tensor_offsets = [self.tensor(s, t) for t in sg.tensors]
        vo_tensors = self.vector(("tensors", s), "I", tensor_offsets, f"subgraph {s}: tensor vector")
        buffer_offsets = []
        for b in sg.buffers:
            data_offset = NOT_SET
            if b.data is not None:
                data_offset = self.out.put(("bdata", s, b.index), len(b.data), [(0, b.data)], align=False)
            buffer_offsets.append(self.out.put(("buffer", s, b.index), BUFFER_SIZE, [
                (0, _pack("II", (b.size, data_offset), f"buffer {b.index}"))]))
        vo_buffers = self.vector(("buffers", s), "I", buffer_offsets, f"subgraph {s}: buffer vector")
        vi_in = self.vector(("sg_in", s), "I", sg.inputs, f"subgraph {s}: input nodes")
        vi_out = self.vector(("sg_out", s), "I", sg.outputs, f"subgraph {s}: output nodes")
        s_name = self.string(("sname", s), sg.name)
        info_offsets = [self.sub_info(s, k, info) for k, info in enumerate(sg.sub_info)]
        vo_info = self.vector(("subinfos", s), "I", info_offsets, f"subgraph {s}: sub-infos") if info_offsets else 0
        fields = (sg.subgraph_id, sg.graph_layout, sg.model_layout, vi_in, vi_out, vo_nodes, vo_tensors, vo_buffers,
                  s_name)
        old = self.raw.get("objects", {}).get(("sg", s), (0, SUBGRAPH_SIZE))[1] == OLD_SUBGRAPH_SIZE
        if old and not info_offsets:
            return self.out.put(("sg", s), OLD_SUBGRAPH_SIZE, [(0, _pack("IiiIIIIII", fields, f"subgraph {s}"))])
        return self.out.put(("sg", s), SUBGRAPH_SIZE, [(0, _pack("IiiIIIIIII", (*fields, vo_info), f"subgraph {s}"))])

    def sub_info(self, s: int, k: int, info: SubInfo) -> int:
        what = f"subgraph {s}: sub-info {k}"
        vi_nodes = self.vector(("si_nodes", s, k), "I", info.nodes, what)
        vi_in = self.vector(("si_in", s, k), "I", info.input_tensors, what)
        vi_out = self.vector(("si_out", s, k), "I", info.output_tensors, what)
        s_dev = self.string(("si_dev", s, k), info.device_name)
        return self.out.put(("si", s, k), SUBINFO_SIZE, [(0, _pack("IIiIIII", (
            info.subgraph_id, info.input_wait_count, info.data_type, vi_nodes, vi_in, vi_out, s_dev), what))])

    def node(self, s: int, node: Node) -> int:
        n = node.index
        what = f"node {n}"
        s_name = self.string(("nname", s, n), node.name)
        vi_in = self.vector(("n_in", s, n), "I", node.inputs, f"{what}: inputs") if node.inputs else NOT_SET
        vi_out = self.vector(("n_out", s, n), "I", node.outputs, f"{what}: outputs") if node.outputs else NOT_SET
        t_param = self.params(s, node)
        t_op = self.out.put(("op", s, n), OPERATOR_SIZE, [
            (0, _pack("III", (node.op_version, node.op_id, t_param), f"{what}: operator"))])
        vo_attrs = NOT_SET
        if node.attrs:
            attr_offsets = []
            for a, attr in enumerate(node.attrs):
                s_an = self.string(("attr_name", s, n, a), attr.name)
                s_av = self.string(("attr_val", s, n, a), attr.value)
                attr_offsets.append(self.out.put(("attr", s, n, a), ATTR_SIZE, [
                    (0, _pack("IIi", (s_an, s_av, attr.attr_type), f"{what}: attribute {a}"))]))
            vo_attrs = self.vector(("attrs", s, n), "I", attr_offsets, f"{what}: attributes")
        return self.out.put(("node", s, n), NODE_SIZE, [
            (0, _pack("IIIIIIB", (n, vi_in, vi_out, t_op, s_name, vo_attrs, int(node.dynamic_shape)), what))])

    def params(self, s: int, node: Node) -> int:
        """The parameter block: re-encoded from `params` through the layout for a known op (over the padding
        bytes of `param_bytes`, so they survive a fresh layout too), the stored bytes for an unknown one. A
        node built by hand (no `param_bytes`) gets the layout's defaults for the fields it does not give; a node
        read from a file keeps its block's length (older files store shorter ones)."""
        n = node.index
        ps = self.structs.get(node.op_id)
        if ps is not None and node.older_layout is not None:
            if not 0 <= node.older_layout < len(ps.older):
                raise TmfileError(f"node {n} ({ps.op_name}): no older layout {node.older_layout} "
                                  f"({len(ps.older)} known)")
            ps = ps.used(node.older_layout)
        if ps is None:
            if node.param_bytes is None:
                return NOT_SET
            return self.out.put(("param", s, n), len(node.param_bytes), [(0, node.param_bytes)])
        if node.param_bytes is None and not node.params and not ps.slots:
            return NOT_SET
        what = f"node {n} ({ps.op_name}): parameter block"
        params = dict(node.params)
        if node.param_bytes is None:
            params = {slot.field.name: slot.field.default for slot in ps.slots} | params
        unknown = sorted(set(params) - {slot.field.name for slot in ps.slots})
        if unknown:
            raise TmfileError(f"{what}: {ps.op_name} has no field {unknown[0]!r}")
        offsets: dict[str, int] = {}
        for slot in ps.slots:
            name, ctype = slot.field.name, slot.field.ctype
            if ctype not in OFFSET_CTYPES or params.get(name) is None:
                continue
            key = ("pobj", s, n, name)
            if ctype == "offset_string":
                offsets[name] = self.string(key, str(params[name]))
            else:
                offsets[name] = self.vector(key, "i" if ctype == "offset_vector_int32" else "f", params[name],
                                            f"{what} field {name}")
        body = encode_scalars(ps, params, offsets, what)
        pieces = [(slot.offset, body[slot.offset:slot.offset + slot.size]) for slot in ps.slots
                  if slot.offset + slot.size <= len(body)]
        size = len(body)
        if node.param_bytes is not None and len(node.param_bytes) >= len(body):
            # the block as read (its padding, and any bytes past the layout's fields); the fields go over it
            pieces.insert(0, (0, node.param_bytes))
            size = len(node.param_bytes)
        return self.out.put(("param", s, n), size, pieces)

    def tensor(self, s: int, t: Tensor) -> int:
        i = t.index
        what = f"tensor {i}"
        s_name = self.string(("tname", s, i), t.name)
        vd_dims = self.vector(("dims", s, i), "i", t.dims, f"{what}: dims")
        vo_quant = NOT_SET
        if t.quant_params:
            q_offsets = [self.out.put(("qp", s, i, q), QUANT_SIZE, [
                (0, _pack("ifi", (qp.zero_point, qp.scale, qp.width), f"{what}: quantisation parameter {q}"))])
                for q, qp in enumerate(t.quant_params)]
            vo_quant = self.vector(("qps", s, i), "I", q_offsets, f"{what}: quantisation vector")
        return self.out.put(("tensor", s, i), TENSOR_SIZE, [(0, _pack("IIIIIiii", (
            i, t.buffer, vd_dims, s_name, vo_quant, t.layout, t.kind, t.data_type), what))])


def _check_indices(m: Model) -> None:
    """The writer names objects by their index: they must be the records' positions."""
    for s, sg in enumerate(m.subgraphs):
        indices: list[tuple[str, list[int]]] = [("node", [n.index for n in sg.nodes]),
                                                ("tensor", [t.index for t in sg.tensors]),
                                                ("buffer", [b.index for b in sg.buffers])]
        for kind, found in indices:
            for pos, index in enumerate(found):
                if index != pos:
                    raise TmfileError(f"subgraph {s}: {kind} at position {pos} has index {index}")


def write_model(m: Model, structs: Mapping[int, ParamStruct]) -> bytes:
    """Encode `m` (see the module's doc for the layout and when the output is byte for byte the file read)."""
    _check_indices(m)
    image, objects = m.raw.get("image"), m.raw.get("objects")
    if isinstance(image, bytes) and isinstance(objects, dict):
        out = _Out(image, objects)
        try:
            _Writer(out, structs, m.raw).model(m)
            if out.emitted == set(objects):
                return bytes(out.buf)
        except _Relayout:
            pass
    out = _Out(None, None)
    _Writer(out, structs, m.raw).model(m)
    return bytes(out.buf)
