"""Reading a model file the way onnx reads it, turning every failure into one `ModelReadError`."""

from __future__ import annotations

import os
from pathlib import Path

import onnx
from google.protobuf.message import DecodeError


class ModelReadError(Exception):
    """The file cannot be read or is not an ONNX model; the message says which and why."""


def read_model(path: str | os.PathLike[str], *, load_external_data: bool = True) -> onnx.ModelProto:
    """Load `path` with onnx.load (external data resolved next to the file, as onnx does).

    Models over 2 GB must keep their tensors in external data (protobuf cannot hold more); onnx.load
    reads those files and so does this.
    """
    p = Path(path)
    if not p.exists():
        raise ModelReadError(f"{p}: no such file")
    if p.is_dir():
        raise ModelReadError(f"{p}: is a directory, not a model file")
    try:
        model = onnx.load(str(p), load_external_data=load_external_data)
    except DecodeError as e:
        raise ModelReadError(f"{p}: not an ONNX model (protobuf decoding failed: {e})") from e
    except (OSError, ValueError, RuntimeError, onnx.checker.ValidationError) as e:
        # missing or out-of-folder external data files, unreadable bytes
        raise ModelReadError(f"{p}: cannot read the model: {_first_line(e)}") from e
    problem = not_a_model(model)
    if problem:
        raise ModelReadError(f"{p}: not an ONNX model ({problem})")
    return model


def not_a_model(model: onnx.ModelProto) -> str | None:
    """Why a decoded protobuf is not a model (random bytes can decode to a near-empty message)."""
    if model.ir_version <= 0:
        return "no ir_version"
    if not model.HasField("graph"):
        return "no graph"
    if not model.opset_import and model.ir_version >= 3:
        return "no opset_import"
    return None


def _first_line(error: Exception) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__
