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
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the reader's modules load on first use: `opset validate model.onnx` asks `is_tmfile` only
    from opset.registry import Registry
    from opset.tmfile.binary import TmfileError
    from opset.tmfile.model import Model

__all__ = ["Model", "TmfileError", "is_tmfile", "read_tmfile", "write_tmfile"]

MAX_FILE_SIZE = 1 << 31  # offsets are 32-bit: a TM2 file cannot be larger than this


def __getattr__(name: str) -> Any:
    if name == "Model":
        from opset.tmfile.model import Model

        return Model
    if name == "TmfileError":
        from opset.tmfile.binary import TmfileError

        return TmfileError
    raise AttributeError(f"module 'opset.tmfile' has no attribute '{name}'")


def is_tmfile(path: str) -> bool:
    """A `.tmfile` by its suffix, or by its first bytes: a TM2 header starts with the uint16 main version 1 or 2,
    which no ONNX file does (protobuf has no field 0)."""
    if path.endswith(".tmfile"):
        return True
    try:
        with open(path, "rb") as f:
            head = f.read(2)
    except OSError:
        return False
    return head in (b"\x01\x00", b"\x02\x00")


def read_tmfile(source: str | PathLike[str] | bytes | bytearray | memoryview,
                registry: Registry | None = None) -> Model:
    """Read a `.tmfile` from a path or from its bytes; raise `TmfileError` when it is not a readable TM2 file.

    The error is one line; read from a path, it starts with the path, so callers print it as it is."""
    from opset.tmfile.binary import TmfileError
    from opset.tmfile.params import param_structs
    from opset.tmfile.reader import read_image

    if isinstance(source, (bytes, bytearray, memoryview)):
        return read_image(bytes(source), param_structs(registry))
    path = Path(source)
    try:
        return read_image(_file_bytes(path), param_structs(registry))
    except TmfileError as e:
        raise TmfileError(f"{path}: {' '.join(str(e).split())}") from None


def _file_bytes(path: Path) -> bytes:
    from opset.tmfile.binary import TmfileError

    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):  # a device or pipe could be endless
            raise TmfileError("not a regular file")
        if info.st_size > MAX_FILE_SIZE:
            raise TmfileError(f"{info.st_size} bytes is more than a TM2 file's 32-bit offsets can address")
        return path.read_bytes()
    except OSError as e:
        raise TmfileError(f"cannot read the file ({e.strerror or e})") from None


def write_tmfile(model: Model, registry: Registry | None = None) -> bytes:
    """Encode `model` as a `.tmfile` (see `opset.tmfile.writer`)."""
    from opset.tmfile.params import param_structs
    from opset.tmfile.writer import write_model

    return write_model(model, param_structs(registry))
