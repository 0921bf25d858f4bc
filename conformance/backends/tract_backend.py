"""The `tract` backend (extra `.[tract]`): Sonos' tract (its Python package) on a one-node model.

tract loads ONNX from a file only, so each model goes through a temporary file: `tract.onnx().load(path)`,
`into_model()`, `into_runnable()`, `run(inputs in graph-input order)`. It translates an op to its typed form only when
the inputs that shape the result are known, so parameter and weight inputs arrive as initializers by default
(`constant_inputs = "all"`), as in the models tract reads.

Element types: tract has no bfloat16, float8 or 4-bit types (its loader says "Unknown DatumType" and the case is
unsupported) and its Python API feeds only bool, integer, float and complex arrays (it fails on any other with a
TypeError of its own making; such inputs are unsupported here, as the API's limit). An output whose type the Python API
cannot show (tract keeps some integer results as TDim, its symbolic-dimension type) is converted by tract's own
`convert_to` into the element type the model declares for it; a string output it cannot give at all (unsupported,
in its own words: "Unsupported DatumType in the public API String").

Messages: tract's errors end with a Rust stack backtrace when RUST_BACKTRACE is set; the backtrace is cut (it is not
part of the message, the "Caused by" chain is kept whole). Unsupported: only tract's own words for an op, type or
input it cannot translate (`UNSUPPORTED_MARKERS`).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import onnx

from conformance.backends.library import raise_unsupported_if, require
from conformance.backends.protocol import Unsupported

# tract's words for "cannot load or translate this" (never a wrong answer)
UNSUPPORTED_MARKERS = (
    "Unknown DatumType",  # an element type tract does not have (bfloat16, float8, 4-bit, string in some places)
    "unknown ONNX TensorProto.DataType",  # a newer element type its ONNX parser does not know (uint2, int2)
    "Unimplemented(",  # no tract op for this ONNX op (or attribute combination)
    "Operator can not be made a TypedOp",
    "Unsupported operator set",  # an opset version of an op tract does not implement (Clip-1 ...)
    "Unsupported mode ",  # an attribute value its converter lacks (Pad's wrap)
)
NUMPY_KINDS = "biufc"  # what tract's Python API turns into tensors (tensor.dt_numpy_to_tract)
CUSTOM_DOMAINS = ("ai.onnx.modified", "tengine")
_BACKTRACE = "\n\nStack backtrace:"
# ONNX element type of a declared output -> the tract DatumType name its convert_to takes
_DATUM_NAMES: dict[int, str] = {
    onnx.TensorProto.BOOL: "BOOL", onnx.TensorProto.UINT8: "U8", onnx.TensorProto.UINT16: "U16",
    onnx.TensorProto.UINT32: "U32", onnx.TensorProto.UINT64: "U64", onnx.TensorProto.INT8: "I8",
    onnx.TensorProto.INT16: "I16", onnx.TensorProto.INT32: "I32", onnx.TensorProto.INT64: "I64",
    onnx.TensorProto.FLOAT16: "F16", onnx.TensorProto.FLOAT: "F32", onnx.TensorProto.DOUBLE: "F64"}


def without_backtrace(text: str) -> str:
    """A tract error's message without the Rust stack backtrace anyhow appends under RUST_BACKTRACE."""
    return text.split(_BACKTRACE, 1)[0].rstrip()


class TractBackend:
    """`run(model, feeds)` through a temporary file, tract's loader and a runnable model."""

    name = "tract"
    constant_inputs = "all"

    def __init__(self) -> None:
        self._tract = require("tract", "tract", "tract")

    def supports(self, domain: str, op: str, version: int, dtypes: list[str]) -> bool:
        return domain not in CUSTOM_DOMAINS

    def run(self, model: onnx.ModelProto, feeds: dict[str, Any]) -> list[np.ndarray]:
        tract = self._tract
        runnable = self._load(model)  # first: where tract lacks an element type, its loader says so
        names = [i.name for i in model.graph.input]
        for name in names:
            x = feeds.get(name)
            if not isinstance(x, np.ndarray) or x.dtype.kind not in NUMPY_KINDS:
                shown = getattr(x, "dtype", type(x).__name__)
                raise Unsupported(f"input '{name}' is {shown}: tract's Python API feeds only bool, integer, float and "
                                  "complex arrays")
        try:
            outputs = runnable.run([np.require(feeds[n], requirements="C") for n in names])
            return [self._array(t, o) for t, o in zip(outputs, model.graph.output, strict=False)]
        except tract.TractError as e:
            raise tract.TractError(without_backtrace(str(e))) from None

    def _load(self, model: onnx.ModelProto) -> Any:
        """The model as a tract runnable (through a file removed right after: a worker killed after a crash leaves
        nothing behind)."""
        tract = self._tract
        handle, name = tempfile.mkstemp(prefix="conform-tract-", suffix=".onnx")
        try:
            with os.fdopen(handle, "wb") as f:
                f.write(model.SerializeToString())
            return tract.onnx().load(name).into_model().into_runnable()
        except tract.TractError as e:
            text = without_backtrace(str(e))
            raise_unsupported_if(e, text, UNSUPPORTED_MARKERS, "tract cannot load the model")
            raise tract.TractError(text) from None
        finally:
            Path(name).unlink(missing_ok=True)

    def _array(self, tensor: Any, declared: onnx.ValueInfoProto) -> np.ndarray:
        """An output Tensor as numpy; one of a type the Python API cannot show, converted by tract to the declared
        element type."""
        tract = self._tract
        try:
            tensor.datum_type()
        except tract.TractError as e:  # "Unsupported DatumType in the public API TDim" (or String)
            text = without_backtrace(str(e))
            name = _DATUM_NAMES.get(int(declared.type.tensor_type.elem_type))
            if name is None:  # a string output: the Python API has no way to give it
                raise Unsupported(f"output '{declared.name}': {text}") from None
            tensor = tensor.convert_to(getattr(tract.DatumType, name))
        return np.asarray(tensor.to_numpy())
