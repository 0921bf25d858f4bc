"""Reading a model file the way onnx reads it, turning every failure into one `ModelReadError`; writing one the way
onnx writes it."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import DecodeError, Message

from opset.onnx_proto import pb


class ModelReadError(Exception):
    """The file cannot be read or is not an ONNX model; the message says which and why."""


def read_model(path: str | os.PathLike[str], *, load_external_data: bool = True) -> pb.ModelProto:
    """Read `path` as `onnx.load` does: the format from the file's extension (binary protobuf unless it names one of
    onnx's text formats), every byte consumed, external data resolved next to the file.

    Models over 2 GB must keep their tensors in external data (protobuf cannot hold more); onnx.load reads those
    files and so does this. A binary model is parsed here, without importing onnx (a cold `opset validate` would
    spend most of its time importing it); a text format, or a model with external data to load, goes through onnx.
    """
    p = Path(path)
    if not p.exists():
        raise ModelReadError(f"{p}: no such file")
    if p.is_dir():
        raise ModelReadError(f"{p}: is a directory, not a model file")
    if not p.is_file():  # a device or a pipe could be endless (/dev/zero): onnx.load would read it all
        raise ModelReadError(f"{p}: is not a regular file")
    try:
        if p.suffix in _TEXT_FORMATS:
            import onnx
            model = onnx.load(str(p), load_external_data=load_external_data)
        else:
            data = p.read_bytes()
            model = pb.ModelProto()
            consumed = model.ParseFromString(data)
            if consumed is not None and consumed != len(data):
                raise DecodeError(f"Protobuf decoding consumed too few bytes: {consumed} out of {len(data)}")
            if load_external_data and _has_external_data(model):
                from onnx.external_data_helper import load_external_data_for_model
                load_external_data_for_model(model, str(p.parent))
    except DecodeError as e:
        raise ModelReadError(f"{p}: not an ONNX model (protobuf decoding failed: {e})") from e
    except (OSError, ValueError, RuntimeError, TypeError) as e:
        # missing external data files, unreadable bytes, an external tensor without a location
        raise ModelReadError(f"{p}: cannot read the model: {_first_line(e)}") from e
    except Exception as e:
        if not _onnx_refused(e):
            raise
        raise ModelReadError(f"{p}: cannot read the model: {_first_line(e)}") from e
    problem = not_a_model(model)
    if problem:
        raise ModelReadError(f"{p}: not an ONNX model ({problem})")
    return model


def write_model(model: pb.ModelProto, path: str | os.PathLike[str]) -> None:
    """Write `model` as `onnx.save_model(model, path)` does: in the text format the extension names, else as binary
    protobuf with every tensor inline. Raises OSError when the file cannot be written, ValueError when the model does
    not fit in one protobuf message (2 GB)."""
    p = Path(path)
    if p.suffix in _TEXT_FORMATS:
        import onnx

        onnx.save_model(model, str(p))
        return
    p.write_bytes(model.SerializeToString())


# how onnx and protobuf refuse what a file holds: onnx's ValidationError (an external data file outside the model's
# folder) and the text formats' parse errors; each is looked for only in a loaded module (a binary read loads none)
_REFUSALS = (("onnx.checker", "ValidationError"), ("onnx.parser", "ParseError"),
             ("google.protobuf.text_format", "ParseError"), ("google.protobuf.json_format", "ParseError"))


def _onnx_refused(error: Exception) -> bool:
    """Whether `error` is one of `_REFUSALS`."""
    return any(isinstance(error, getattr(sys.modules[module], name)) for module, name in _REFUSALS
               if module in sys.modules)


# the extensions onnx.load reads as a text format (onnx.serialization's registry); any other is binary protobuf
_TEXT_FORMATS = frozenset({".txtpb", ".textproto", ".prototxt", ".pbtxt", ".json", ".onnxjson", ".onnxtxt",
                           ".onnxtext"})


def _has_external_data(model: pb.ModelProto) -> bool:
    """Whether any tensor onnx's external-data loader visits (initializers of every graph, tensors of every node
    attribute, in the functions too) keeps its values in a file."""
    graphs: list[Any] = [model.graph, *model.functions]
    while graphs:
        graph = graphs.pop()
        if isinstance(graph, pb.GraphProto) and any(t.data_location == _EXTERNAL for t in graph.initializer):
            return True
        for node in graph.node:
            for attribute in node.attribute:
                if attribute.HasField("t") and attribute.t.data_location == _EXTERNAL:
                    return True
                if any(t.data_location == _EXTERNAL for t in attribute.tensors):
                    return True
                if attribute.HasField("g"):
                    graphs.append(attribute.g)
                graphs.extend(attribute.graphs)
    return False


_EXTERNAL = pb.TensorProto.EXTERNAL


def not_a_model(model: pb.ModelProto) -> str | None:
    """Why a decoded protobuf is not a model (random bytes can decode to a near-empty message)."""
    if model.ir_version <= 0:
        return "no ir_version"
    if not model.HasField("graph"):
        return "no graph"
    if not model.opset_import and model.ir_version >= 3:
        return "no opset_import"
    bad = first_non_utf8(model)
    if bad is not None:
        return f"{bad} is not valid UTF-8"
    return None


_FieldPlan = tuple[tuple[str, bool, bool], ...]  # (name, is a string, is repeated) of the string and message fields
_PLANS: dict[str, _FieldPlan] = {}


def _plan(message: Message) -> _FieldPlan:
    descriptor = message.DESCRIPTOR
    plan = _PLANS.get(descriptor.full_name)
    if plan is None:
        plan = tuple((f.name, f.type == FieldDescriptor.TYPE_STRING, f.is_repeated)
                     for f in descriptor.fields
                     if f.type in (FieldDescriptor.TYPE_STRING, FieldDescriptor.TYPE_MESSAGE))
        _PLANS[descriptor.full_name] = plan
    return plan


def first_non_utf8(message: Message, path: str = "model") -> str | None:
    """The path (`model.graph.node[12].op_type`) of the first string field whose bytes are not UTF-8, else None.

    ONNX's strings are UTF-8, but protobuf decodes a proto2 string with other bytes into a `bytes` value instead
    of failing, and names, op types and domains are compared and printed as `str` everywhere after reading.
    Only string and message fields are read (never a tensor's raw_data, which would be copied).
    """
    found = _non_utf8(message)
    return None if found is None else path + found


def _non_utf8(message: Message) -> str | None:
    """`first_non_utf8`'s path below `message` (`.graph.node[12].op_type`), built only on the way back from a find.

    A message lists only the fields it has (`ListFields`: a node has a handful of the fields its type declares),
    except a tensor, read field by field so that its raw_data is not copied."""
    if _has_bytes(message):
        return _non_utf8_by_plan(message)
    for field, value in message.ListFields():
        kind = field.type
        if kind == _STRING:
            if field.is_repeated:
                for k, item in enumerate(value):
                    if item.__class__ is not str:
                        return f".{field.name}[{k}]"
            elif value.__class__ is not str:
                return f".{field.name}"
        elif kind == _MESSAGE:
            if field.is_repeated:
                for k, item in enumerate(value):
                    found = _non_utf8(item)
                    if found is not None:
                        return f".{field.name}[{k}]{found}"
            else:
                found = _non_utf8(value)
                if found is not None:
                    return f".{field.name}{found}"
    return None


def _non_utf8_by_plan(message: Message) -> str | None:
    for name, is_string, repeated in _plan(message):
        if is_string:
            value = getattr(message, name)
            if repeated:
                for k, item in enumerate(value):
                    if item.__class__ is not str:
                        return f".{name}[{k}]"
            elif value.__class__ is not str:
                return f".{name}"
        elif repeated:
            for k, item in enumerate(getattr(message, name)):
                found = _non_utf8(item)
                if found is not None:
                    return f".{name}[{k}]{found}"
        elif message.HasField(name):
            found = _non_utf8(getattr(message, name))
            if found is not None:
                return f".{name}{found}"
    return None


_STRING, _MESSAGE = FieldDescriptor.TYPE_STRING, FieldDescriptor.TYPE_MESSAGE


def _has_bytes(message: Message) -> bool:
    """A tensor: its raw_data and string_data may be large (an attribute's bytes are small: listed with the rest)."""
    name: str = message.DESCRIPTOR.name
    return name == "TensorProto"


def _first_line(error: Exception) -> str:
    """The first line of the error's message (onnx's text parser gives its message as bytes)."""
    raw = error.args[0] if len(error.args) == 1 and isinstance(error.args[0], bytes) else None
    text = (raw.decode("utf-8", "replace") if raw is not None else str(error)).strip().splitlines()
    return text[0] if text else type(error).__name__
