"""Tengine `.tmfile` models (the TM2 container): read, write, inspect; the records are in `model`.

`read_tmfile(path_or_bytes) -> Model` decodes a file (every offset, count and size checked; parameter blocks
decoded from the registry's `tengine.layout`), `write_tmfile(model) -> bytes` encodes one, and any file that
cannot be read (or model that cannot be written) raises `TmfileError` with one line naming the object and
byte offset at fault.
"""

from __future__ import annotations

import stat
from os import PathLike
from pathlib import Path

from opset.registry import Registry
from opset.tmfile.binary import TmfileError
from opset.tmfile.model import Model
from opset.tmfile.params import param_structs
from opset.tmfile.reader import read_image

__all__ = ["Model", "TmfileError", "read_tmfile", "write_tmfile"]

MAX_FILE_SIZE = 1 << 31  # offsets are 32-bit: a TM2 file cannot be larger than this


def read_tmfile(source: str | PathLike[str] | bytes | bytearray | memoryview,
                registry: Registry | None = None) -> Model:
    """Read a `.tmfile` from a path or from its bytes; raise `TmfileError` when it is not a readable TM2 file."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
    else:
        path = Path(source)
        try:
            info = path.stat()
            if not stat.S_ISREG(info.st_mode):  # a device or pipe could be endless
                raise TmfileError(f"{path}: not a regular file")
            size = info.st_size
            if size > MAX_FILE_SIZE:
                raise TmfileError(f"{path}: {size} bytes is more than a TM2 file's 32-bit offsets can address")
            data = path.read_bytes()
        except OSError as e:
            raise TmfileError(f"{path}: cannot read the file ({e.strerror or e})") from None
    return read_image(data, param_structs(registry))


def write_tmfile(model: Model, registry: Registry | None = None) -> bytes:
    """Encode `model` as a `.tmfile` (see `opset.tmfile.writer`)."""
    from opset.tmfile.writer import write_model

    return write_model(model, param_structs(registry))
