"""Read a `.tmfile` (TM2 container, format version 2.x) into the records of `opset.tmfile.model`.

The walk follows Tengine's own loader (`tm2_serializer.c`): header -> root table (TM2_Model) -> vector of
subgraphs -> per subgraph its input/output node indices, nodes (each with its input/output tensor indices,
operator, parameter block, name and attributes), tensors (dims, name, quantisation parameters), buffers and
sub-graph infos. Every object is reached by an absolute offset and every offset, count and size is checked
(`binary.Image`) before it is used, so a damaged file is a located `TmfileError`.

Besides the records, the reader notes where each object it read sits (`Model.raw["objects"]`: key -> (offset,
size)) and keeps the file's bytes (`Model.raw["image"]`), so the writer can put every object back where it was
and leave the bytes no field covers (C struct padding, alignment gaps: uninitialised memory in Tengine's
writer) as they were.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from opset.tmfile.binary import NOT_SET, Image, TmfileError
from opset.tmfile.model import Buffer, Model, Node, NodeAttr, QuantParam, Subgraph, SubInfo, Tensor
from opset.tmfile.params import OFFSET_CTYPES, ParamStruct, decode, stored_length

SUPPORTED_MAIN_VERSION = 2
# object sizes as Tengine's writer stores them (sizeof of the C structs in tm2_format.h)
HEADER_SIZE = 12
MODEL_SIZE = 16
SUBGRAPH_SIZE = 40
OLD_SUBGRAPH_SIZE = 36  # before the sub-info vector was added (the benchmark graphs)
SUBINFO_SIZE = 28
NODE_SIZE = 28  # 6 uint32 + a 1-byte bool + 3 padding bytes
OPERATOR_SIZE = 12
TENSOR_SIZE = 32
BUFFER_SIZE = 8
STRING_SIZE = 8
ATTR_SIZE = 12
QUANT_SIZE = 12
MAX_UNKNOWN_PARAM_BYTES = 4096  # an unknown op's block is kept when it ends at its operator, up to this size

Key = tuple[Any, ...]


class _Reader:
    def __init__(self, data: bytes, structs: Mapping[int, ParamStruct]) -> None:
        self.img = Image(data)
        self.structs = structs
        self.objects: dict[Key, tuple[int, int]] = {}

    def note(self, key: Key, offset: int, size: int) -> None:
        self.objects[key] = (offset, size)

    def string(self, offset: int, key: Key, what: str) -> str | None:
        if offset == NOT_SET:
            return None
        text, size, data_offset = self.img.string(offset, what)
        self.note(key, offset, STRING_SIZE)
        self.note((*key, "data"), data_offset, size)
        return text

    def index_vector(self, offset: int, key: Key, what: str) -> tuple[int, ...]:
        if offset == NOT_SET:
            return ()
        values = self.img.u32_vector(offset, what)
        self.note(key, offset, 4 + 4 * len(values))
        return values

    def read(self) -> Model:
        img = self.img
        if img.size < HEADER_SIZE:
            raise TmfileError(f"header: the file has {img.size} bytes, a .tmfile header needs {HEADER_SIZE}")
        ver_main, ver_sub, ver_compile, pad, root = (int(v) for v in img.unpack("HHHHI", 0, "header"))
        if ver_main != SUPPORTED_MAIN_VERSION:
            # TM1 (header version 0.1.0, read by the C++ Tengine 1.x beside TM2) has other structs and other
            # parameter layouts than the registry's, which describe TM2; anything else is not a Tengine model
            tm1 = ("it looks like TM1, the format before TM2, whose nodes and parameter blocks differ from TM2's; "
                   "save it again as TM2 with Tengine 1.x")
            why = tm1 if ver_main in (0, 1) else "only TM2 (version 2.x) files are read (is this a .tmfile?)"
            raise TmfileError(f"header: format version {ver_main}.{ver_sub}.{ver_compile} is not supported: {why}")
        self.note(("header",), 0, HEADER_SIZE)
        if root == NOT_SET:
            raise TmfileError("header: the root table offset is 0")
        orig_format, sub_format, vo_subgraphs, s_mname = img.unpack("iiII", root, "root table")
        assert isinstance(vo_subgraphs, int) and isinstance(s_mname, int)
        self.note(("model",), root, MODEL_SIZE)
        name = self.string(s_mname, ("mname",), "model name")
        if vo_subgraphs == NOT_SET:
            raise TmfileError(f"root table at {root:#x}: no subgraph vector")
        sg_offsets = img.u32_vector(vo_subgraphs, "subgraph vector")
        self.note(("subgraphs",), vo_subgraphs, 4 + 4 * len(sg_offsets))
        if not sg_offsets:
            raise TmfileError(f"subgraph vector at {vo_subgraphs:#x} is empty: the model has no graph")
        subgraphs = tuple(self.subgraph(i, off, vo_subgraphs) for i, off in enumerate(sg_offsets))
        assert isinstance(orig_format, int) and isinstance(sub_format, int)
        raw: dict[str, Any] = {"image": img.data, "objects": self.objects, "header_pad": pad}
        return Model((ver_main, ver_sub, ver_compile), orig_format, sub_format, name, subgraphs, raw)

    def subgraph(self, s: int, offset: int, vector_offset: int) -> Subgraph:
        """Subgraph `s`. Older files store a 36-byte TM2_Subgraph without the sub-info offset; Tengine's writer
        puts the subgraph vector right after the struct, so a vector 36 bytes on marks the old struct (reading
        40 bytes there would take the vector's count for an offset)."""
        what = f"subgraph {s}"
        old = vector_offset - offset == OLD_SUBGRAPH_SIZE
        fields = [int(v) for v in self.img.unpack("IiiIIIIII" if old else "IiiIIIIIII", offset, what)]
        sg_id, g_layout, m_layout, vi_in, vi_out, vo_nodes, vo_tensors, vo_buffers, s_name = fields[:9]
        vo_subinfo = NOT_SET if old else fields[9]
        self.note(("sg", s), offset, OLD_SUBGRAPH_SIZE if old else SUBGRAPH_SIZE)
        for field, value in (("input node", vi_in), ("output node", vi_out), ("node", vo_nodes),
                             ("tensor", vo_tensors), ("buffer", vo_buffers)):
            if value == NOT_SET:  # Tengine's loader follows these without a check: a real file always has them
                raise TmfileError(f"{what} at {offset:#x}: no {field} vector (offset 0)")
        inputs = self.index_vector(vi_in, ("sg_in", s), f"{what}: input node vector")
        outputs = self.index_vector(vi_out, ("sg_out", s), f"{what}: output node vector")
        node_offsets = self.index_vector(vo_nodes, ("nodes", s), f"{what}: node vector")
        nodes = tuple(self.node(s, n, off) for n, off in enumerate(node_offsets))
        tensor_offsets = self.index_vector(vo_tensors, ("tensors", s), f"{what}: tensor vector")
        tensors = tuple(self.tensor(s, t, off) for t, off in enumerate(tensor_offsets))
        buffer_offsets = self.index_vector(vo_buffers, ("buffers", s), f"{what}: buffer vector")
        buffers = tuple(self.buffer(s, b, off) for b, off in enumerate(buffer_offsets))
        name = self.string(s_name, ("sname", s), f"{what}: name")
        info_offsets = self.index_vector(vo_subinfo, ("subinfos", s), f"{what}: sub-info vector")
        infos = tuple(self.sub_info(s, k, off) for k, off in enumerate(info_offsets))
        return Subgraph(s, sg_id, g_layout, m_layout, inputs, outputs, nodes, tensors, buffers, name, infos)

    def sub_info(self, s: int, k: int, offset: int) -> SubInfo:
        what = f"subgraph {s}: sub-info {k}"
        sg_id, wait, dtype, vi_nodes, vi_in, vi_out, s_dev = (int(v) for v in self.img.unpack("IIiIIII", offset, what))
        self.note(("si", s, k), offset, SUBINFO_SIZE)
        nodes = self.index_vector(vi_nodes, ("si_nodes", s, k), f"{what}: node list")
        ins = self.index_vector(vi_in, ("si_in", s, k), f"{what}: input tensors")
        outs = self.index_vector(vi_out, ("si_out", s, k), f"{what}: output tensors")
        device = self.string(s_dev, ("si_dev", s, k), f"{what}: device name")
        return SubInfo(sg_id, wait, dtype, nodes, ins, outs, device)

    def node(self, s: int, n: int, offset: int) -> Node:
        what = f"node {n}"
        img = self.img
        _node_id, vi_in, vi_out, t_op, s_name, vo_attrs, dyn = (
            int(v) for v in img.unpack("IIIIIIB", offset, what))
        self.note(("node", s, n), offset, NODE_SIZE)
        name = self.string(s_name, ("nname", s, n), f"{what}: name")
        inputs = self.index_vector(vi_in, ("n_in", s, n), f"{what}: input tensor vector")
        outputs = self.index_vector(vi_out, ("n_out", s, n), f"{what}: output tensor vector")
        if t_op == NOT_SET:
            raise TmfileError(f"{what} at {offset:#x}: no operator (offset 0)")
        op_ver, op_id, t_param = (int(v) for v in img.unpack("III", t_op, f"{what}: operator"))
        self.note(("op", s, n), t_op, OPERATOR_SIZE)
        ps = self.structs.get(op_id)
        params: dict[str, Any] = {}
        param_bytes: bytes | None = None
        older: int | None = None
        if t_param != NOT_SET:
            room = t_op - t_param if 0 < t_op - t_param else None  # Tengine writes the block just before its operator
            label = f"{what}: parameter block"
            if ps is not None:
                # a block of exactly an older writer's struct size is that struct (its fields sit elsewhere)
                older = ps.older_of_size(room) if room is not None else None
                ps = ps.used(older)
                length = ps.size if room is None else stored_length(ps, room)
                params = decode(img, ps, t_param, length, f"{what} ({ps.op_name}): parameter block")
                # a block longer than the layout (a newer writer's struct with more fields) is kept whole
                kept = room if room is not None and ps.size < room <= MAX_UNKNOWN_PARAM_BYTES else length
                param_bytes = _without_offsets(ps, img.bytes_at(t_param, kept, label))
                self.note(("param", s, n), t_param, kept)
                self._note_param_objects(s, n, ps, t_param, length)
            elif room is not None and room <= MAX_UNKNOWN_PARAM_BYTES:
                param_bytes = img.bytes_at(t_param, room, label)
                self.note(("param", s, n), t_param, room)
        attrs = self.attrs(s, n, vo_attrs)
        return Node(n, name, op_id, op_ver, ps.op_name if ps else None, params, param_bytes, inputs, outputs, attrs,
                    bool(dyn), older)

    def _note_param_objects(self, s: int, n: int, ps: ParamStruct, offset: int, length: int) -> None:
        """Note where the vectors and strings a parameter block points at sit (decode checked them)."""
        for slot in ps.slots:
            if slot.offset + slot.size > length or slot.field.ctype not in OFFSET_CTYPES:
                continue
            target = self.img.u32(offset + slot.offset, "parameter field")
            if target == NOT_SET:
                continue
            key = ("pobj", s, n, slot.field.name)
            if slot.field.ctype == "offset_string":
                size, data_offset = (int(v) for v in self.img.unpack("II", target, "parameter string"))
                self.note(key, target, STRING_SIZE)
                self.note((*key, "data"), data_offset, size)
            else:
                count = self.img.u32(target, "parameter vector")
                self.note(key, target, 4 + 4 * count)

    def attrs(self, s: int, n: int, offset: int) -> tuple[NodeAttr, ...]:
        what = f"node {n}: attributes"
        out: list[NodeAttr] = []
        for a, off in enumerate(self.index_vector(offset, ("attrs", s, n), what)):
            s_name, s_val, attr_type = (int(v) for v in self.img.unpack("IIi", off, f"{what} {a}"))
            self.note(("attr", s, n, a), off, ATTR_SIZE)
            name = self.string(s_name, ("attr_name", s, n, a), f"{what} {a} name") or ""
            value = self.string(s_val, ("attr_val", s, n, a), f"{what} {a} value") or ""
            out.append(NodeAttr(name, value, attr_type))
        return tuple(out)

    def tensor(self, s: int, t: int, offset: int) -> Tensor:
        what = f"tensor {t}"
        img = self.img
        _tid, buffer_id, vd_dims, s_name, vo_quant, layout, kind, dtype = (
            int(v) for v in img.unpack("IIIIIiii", offset, what))
        self.note(("tensor", s, t), offset, TENSOR_SIZE)
        name = self.string(s_name, ("tname", s, t), f"{what}: name")
        dims: tuple[int, ...] | None = None
        if vd_dims != NOT_SET:
            dims = img.i32_vector(vd_dims, f"{what}: dims")
            self.note(("dims", s, t), vd_dims, 4 + 4 * len(dims))
        quant: list[QuantParam] = []
        for q, q_off in enumerate(self.index_vector(vo_quant, ("qps", s, t), f"{what}: quantisation vector")):
            zp, scale, width = img.unpack("ifi", q_off, f"{what}: quantisation parameter {q}")
            self.note(("qp", s, t, q), q_off, QUANT_SIZE)
            assert isinstance(zp, int) and isinstance(width, int)
            quant.append(QuantParam(zp, float(scale), width))
        return Tensor(t, name, buffer_id, dims, layout, kind, dtype, tuple(quant))

    def buffer(self, s: int, b: int, offset: int) -> Buffer:
        what = f"buffer {b}"
        size, data_offset = (int(v) for v in self.img.unpack("II", offset, what))
        self.note(("buffer", s, b), offset, BUFFER_SIZE)
        data: bytes | None = None
        if data_offset != NOT_SET:
            data = self.img.bytes_at(data_offset, size, f"{what}: data")
            self.note(("bdata", s, b), data_offset, size)
        return Buffer(b, size, data)


def _without_offsets(ps: ParamStruct, block: bytes) -> bytes:
    """The block with its vector and string offset fields zeroed: they are positions in this file, not values
    (`params` holds what they point at), and would differ in the same model laid out elsewhere."""
    out = bytearray(block)
    for slot in ps.slots:
        if slot.field.ctype in OFFSET_CTYPES and slot.offset + slot.size <= len(out):
            out[slot.offset:slot.offset + slot.size] = bytes(slot.size)
    return bytes(out)


def read_image(data: bytes, structs: Mapping[int, ParamStruct]) -> Model:
    """Decode a whole file held in memory; `structs` maps op ids to their parameter structs."""
    return _Reader(data, structs).read()
