"""A node's parameter block, decoded and encoded from the registry alone: no per-op code.

The block is the C struct `tengine.param_struct` of the op whose `tengine.op_id` matches; its fields are the
op's `tengine.layout`, in binary order, laid out as a C compiler lays out a struct (each field at a multiple
of its size, the whole padded to its widest field). Scalar fields decode to int or float; `offset_vector_int32`
and `offset_vector_float32` fields are offsets of TM2 vectors elsewhere in the file and decode to a list (None
for offset 0); `offset_string` fields point at a TM2_String and decode to str (None for offset 0).
"""

from __future__ import annotations

import struct
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from opset.model import BinaryField, OpVersion, Tengine
from opset.registry import Registry
from opset.tmfile.binary import Image, TmfileError

# ctype -> struct format of the field itself (offsets are uint32)
_FORMATS: dict[str, str] = {
    "int8": "b", "uint8": "B", "int16": "h", "uint16": "H", "int32": "i", "uint32": "I", "float32": "f",
    "offset_vector_int32": "I", "offset_vector_float32": "I", "offset_string": "I",
}
OFFSET_CTYPES = frozenset({"offset_vector_int32", "offset_vector_float32", "offset_string"})


@dataclass(frozen=True)
class FieldSlot:
    """Where one layout field sits in the struct."""

    field: BinaryField
    offset: int
    fmt: str

    @property
    def size(self) -> int:
        return struct.calcsize("<" + self.fmt)


@dataclass(frozen=True)
class ParamStruct:
    """One op's parameter struct: its name, id, fields with their offsets, and `sizeof`."""

    op_name: str
    op_id: int
    slots: tuple[FieldSlot, ...]
    size: int  # sizeof the C struct, tail padding included
    older: tuple[ParamStruct, ...] = ()  # the structs of older writers (`tengine.older_layouts`), in their order

    def older_of_size(self, room: int) -> int | None:
        """The index of the older struct a block of `room` bytes is, when it is not today's struct."""
        if room == self.size:
            return None
        for k, older in enumerate(self.older):
            if older.size == room:
                return k
        return None

    def used(self, older_layout: int | None) -> ParamStruct:
        """The struct a node's block was read with: today's, or the older one of that index."""
        return self if older_layout is None else self.older[older_layout]


def struct_of(op_name: str, tengine: Tengine) -> ParamStruct:
    """Lay out `tengine.layout` as a C struct (natural alignment), with the older writers' structs."""
    older = []
    for o in tengine.older_layouts:
        laid = _laid_out(op_name, tengine.op_id, o.fields)
        if laid.size != o.size:
            raise ValueError(f"tengine::{op_name}: the older layout said to be {o.size} bytes lays out as {laid.size}")
        older.append(laid)
    return replace(_laid_out(op_name, tengine.op_id, tengine.layout), older=tuple(older))


def _laid_out(op_name: str, op_id: int, fields: tuple[BinaryField, ...]) -> ParamStruct:
    offset = 0
    widest = 1
    slots: list[FieldSlot] = []
    for f in fields:
        fmt = _FORMATS.get(f.ctype)
        if fmt is None:
            raise ValueError(f"tengine::{op_name}: field {f.name} has unknown ctype {f.ctype!r}")
        size = struct.calcsize("<" + fmt)
        offset = (offset + size - 1) // size * size
        slots.append(FieldSlot(f, offset, fmt))
        offset += size
        widest = max(widest, size)
    total = (offset + widest - 1) // widest * widest if slots else 0
    return ParamStruct(op_name, op_id, tuple(slots), total)


_LAST: list[tuple[Registry, dict[int, ParamStruct]]] = []  # the last registry asked about and its structs
_DEFAULT: list[dict[int, ParamStruct]] = []  # the structs of the registry `load_registry()` gives, once a process


def tengine_versions(registry: Registry) -> dict[int, OpVersion]:
    """The registry's tengine op versions by TM2 op id (the newest version of each op)."""
    found: dict[int, OpVersion] = {}
    for (domain, _name), op in registry.ops.items():
        version = op.versions[-1]
        if domain == "tengine" and version.tengine is not None:
            found[version.tengine.op_id] = version
    return found


def _structs(reg: Registry) -> dict[int, ParamStruct]:
    if _LAST and _LAST[0][0] is reg:
        return _LAST[0][1]
    out = {op_id: struct_of(v.name, v.tengine) for op_id, v in tengine_versions(reg).items() if v.tengine is not None}
    _LAST[:] = [(reg, out)]
    return out


def param_structs(reg: Registry | None = None) -> Mapping[int, ParamStruct]:
    """op id -> parameter struct, for every tengine op of the registry (loaded when not given)."""
    if reg is not None:
        return _structs(reg)
    if not _DEFAULT:
        from opset.load import load_registry

        _DEFAULT.append(_structs(load_registry()))
    return _DEFAULT[0]


def stored_length(ps: ParamStruct, room: int) -> int:
    """How many bytes of `ps` a block has when `room` bytes lie before the next object: `ps.size`, or for an
    older, shorter struct the end of the last field that fits."""
    if room >= ps.size:
        return ps.size
    end = 0
    for slot in ps.slots:
        if slot.offset + slot.size > room:
            break
        end = slot.offset + slot.size
    return end


def decode(img: Image, ps: ParamStruct, offset: int, length: int, what: str) -> dict[str, Any]:
    """Decode the fields of `ps` that lie wholly within the `length` bytes stored at `offset`.

    `length` is shorter than `ps.size` for files written with an older, shorter struct; the fields past it are
    left out of the result (not guessed), so a reader can tell a missing field from a stored one.
    """
    img.check(offset, length, what)
    out: dict[str, Any] = {}
    for slot in ps.slots:
        if slot.offset + slot.size > length:
            break
        name = slot.field.name
        value = struct.unpack_from("<" + slot.fmt, img.data, offset + slot.offset)[0]
        ctype = slot.field.ctype
        if ctype in OFFSET_CTYPES:
            out[name] = _follow(img, ctype, value, f"{what} field {name}")
        else:
            out[name] = value
    return out


def _follow(img: Image, ctype: str, offset: int, what: str) -> Any:
    if offset == 0:
        return None
    if ctype == "offset_vector_int32":
        return list(img.i32_vector(offset, what))
    if ctype == "offset_vector_float32":
        return list(img.f32_vector(offset, what))
    return img.string(offset, what)[0]


def encode_scalars(ps: ParamStruct, params: Mapping[str, Any], offsets: Mapping[str, int], what: str) -> bytes:
    """The struct bytes of `params` (a prefix of the layout's fields), offset fields taken from `offsets`.

    The result is `ps.size` long when every field is given, else it ends after the last given field (an older,
    shorter block); padding is zero.
    """
    buf = bytearray(ps.size)
    end = 0
    missing: str | None = None
    for slot in ps.slots:
        name = slot.field.name
        if name not in params:
            missing = name
            continue
        if missing is not None:
            raise TmfileError(f"{what}: field {name} is given but the earlier field {missing} is not")
        if slot.field.ctype in OFFSET_CTYPES:
            value: Any = offsets.get(name, 0)
        else:
            value = params[name]
        try:
            struct.pack_into("<" + slot.fmt, buf, slot.offset, value)
        except struct.error as e:
            raise TmfileError(f"{what}: field {name} = {value!r} does not fit {slot.field.ctype} ({e})") from None
        end = slot.offset + slot.size
    return bytes(buf) if missing is None else bytes(buf[:end])
