"""Bounded little-endian reads of a `.tmfile` image, and the one error every bad file turns into.

Every read names what it reads (`what`, e.g. "node 3: parameter block") and checks its offset and length
against the image's size before touching a byte, so a wrong offset or count in a file is a located
`TmfileError`, never an IndexError, a huge allocation or a loop sized by garbage: a vector's element count is
bounded by the bytes left after it before anything is read or allocated.
"""

from __future__ import annotations

import struct

OFFSET_SIZE = 4  # tm_uoffset_t, tm_size_t
NOT_SET = 0  # an offset of 0 means "absent" (the header sits there)


class TmfileError(Exception):
    """A `.tmfile` that cannot be read (or a model that cannot be written): one line naming the object and offset."""


class Image:
    """Read-only view of a whole file with bounds-checked, located reads."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.size = len(data)
        # bytes the reader may copy out in all: a real file stores each vector, string and buffer once, so a
        # file whose offsets point many times at the same big object is refused instead of multiplied
        self.budget = 4 * self.size + 65536

    def charge(self, length: int, what: str, offset: int) -> None:
        self.budget -= length
        if self.budget < 0:
            raise TmfileError(f"{what} at {offset:#x}: the file's offsets reference more data than the file holds "
                              f"(size {self.size}); objects are shared or overlap")

    def check(self, offset: int, length: int, what: str) -> None:
        """Raise unless `length` bytes at `offset` lie inside the image."""
        if offset < 0 or length < 0 or offset + length > self.size:
            raise TmfileError(
                f"{what} at {offset:#x} ({length} bytes) runs past the end of the file (size {self.size})")

    def unpack(self, fmt: str, offset: int, what: str) -> tuple[int | float, ...]:
        """`struct.unpack` of little-endian `fmt` at `offset`, bounds-checked."""
        full = "<" + fmt
        self.check(offset, struct.calcsize(full), what)
        return struct.unpack_from(full, self.data, offset)

    def u32(self, offset: int, what: str) -> int:
        value = self.unpack("I", offset, what)[0]
        assert isinstance(value, int)
        return value

    def bytes_at(self, offset: int, length: int, what: str) -> bytes:
        self.check(offset, length, what)
        self.charge(length, what, offset)
        return self.data[offset:offset + length]

    def vector(self, offset: int, elem_size: int, what: str) -> tuple[int, int]:
        """A TM2 vector at `offset`: (count, offset of the first element), the count checked against the file."""
        count = self.u32(offset, what)
        start = offset + OFFSET_SIZE
        left = self.size - start
        if count > left // elem_size:
            raise TmfileError(
                f"{what} at {offset:#x} claims {count} elements of {elem_size} bytes but only {left} bytes follow "
                f"(file size {self.size})")
        self.charge(4 + count * elem_size, what, offset)
        return count, start

    def u32_vector(self, offset: int, what: str) -> tuple[int, ...]:
        """A vector of uint32 (offsets or indices)."""
        count, start = self.vector(offset, 4, what)
        return tuple(struct.unpack_from(f"<{count}I", self.data, start))

    def i32_vector(self, offset: int, what: str) -> tuple[int, ...]:
        count, start = self.vector(offset, 4, what)
        return tuple(struct.unpack_from(f"<{count}i", self.data, start))

    def f32_vector(self, offset: int, what: str) -> tuple[float, ...]:
        count, start = self.vector(offset, 4, what)
        return tuple(struct.unpack_from(f"<{count}f", self.data, start))

    def string(self, offset: int, what: str) -> tuple[str, int, int]:
        """A TM2_String at `offset`: (text, size as stored, data offset). The stored size counts a trailing NUL,
        which the text leaves out; bytes that are not UTF-8 are kept (surrogateescape) so they write back."""
        size, data_offset = self.unpack("II", offset, what)
        assert isinstance(size, int) and isinstance(data_offset, int)
        raw = self.bytes_at(data_offset, size, f"{what} text")
        if raw.endswith(b"\0"):
            raw = raw[:-1]
        return raw.decode("utf-8", errors="surrogateescape"), size, data_offset


def align4(position: int) -> int:
    return (position + 3) & ~3
