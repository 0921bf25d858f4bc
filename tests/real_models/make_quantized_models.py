"""Every mode of onnxruntime's quantization tool (`onnxruntime.quantization`) over the exported models of the real-model
corpus (tests/real_models/make_models.py): static quantization in the QDQ and the QOperator format, with 8-bit
activations and weights (u8/u8, u8/s8, s8/s8), per tensor and per channel, onnxruntime's contrib QDQ ops
(com.microsoft QuantizeLinear / DequantizeLinear) off and on, 16-bit activations (contrib ops only), and dynamic
quantization (u8 or s8 weights, per tensor and per channel). Calibrated on the model's own inputs. Each model is
written as `<source>.<mode>.onnx` with its `.inputs.npz` under build/real-models/quantized/, never committed.

    python -m tests.real_models.make_quantized_models [--out DIR]
"""

from __future__ import annotations

import argparse
import logging
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tests.real_models.make_models import DEFAULT_OUT as CORPUS
from tests.real_models.make_models import MAKERS

DEFAULT_OUT = CORPUS / "quantized"
SOURCES = tuple(MAKERS)  # the exported models (torch's exporters), each quantized in every mode


@dataclass(frozen=True)
class Mode:
    """One way of calling onnxruntime's quantizer. `format` is "qdq", "qoperator" or "dynamic"."""

    format: str
    weights: str  # u8 or s8
    activations: str = ""  # u8, s8 or u16 (static only)
    per_channel: bool = False
    contrib: bool = False  # UseQDQContribOps: com.microsoft QuantizeLinear / DequantizeLinear

    @property
    def tag(self) -> str:
        parts = [self.format] + ([f"a{self.activations}"] if self.activations else []) + [f"w{self.weights}"]
        return "_".join(parts + (["pc"] if self.per_channel else []) + (["contrib"] if self.contrib else []))


_PAIRS = (("u8", "u8"), ("u8", "s8"), ("s8", "s8"))  # (activations, weights); s8 activations with u8 weights are
# refused by the tool ("doesn't support data format")
MODES: tuple[Mode, ...] = (
    tuple(Mode("qdq", w, a, pc, contrib) for a, w in _PAIRS for pc in (False, True) for contrib in (False, True))
    + tuple(Mode("qdq", w, "u16", pc, True) for w in ("u8", "s8") for pc in (False, True))
    + tuple(Mode("qoperator", w, a, pc) for a, w in _PAIRS for pc in (False, True))
    + tuple(Mode("dynamic", w, per_channel=pc) for w in ("u8", "s8") for pc in (False, True)))


def model_name(source: str, mode: Mode) -> str:
    return f"{source}.{mode.tag}.onnx"


def quantize(source: Path, mode: Mode, out: Path) -> Path:
    """Write `source` quantized in `mode` (and its inputs) into `out`; the model's path. The source is first prepared
    as the tool's documentation asks (`quant_pre_process`)."""
    from onnxruntime.quantization import (
        CalibrationDataReader,
        QuantFormat,
        QuantType,
        quantize_dynamic,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    types = {"u8": QuantType.QUInt8, "s8": QuantType.QInt8, "u16": QuantType.QUInt16}
    with np.load(source.with_name(source.name.replace(".onnx", ".inputs.npz"))) as stored:
        feeds = {k: stored[k] for k in stored.files}
    out.mkdir(parents=True, exist_ok=True)
    target = out / model_name(source.stem, mode)
    prepared = out / f"{source.stem}.{mode.tag}.prep.onnx"

    class Feeds(CalibrationDataReader):
        def __init__(self) -> None:
            self.items = iter([feeds])

        def get_next(self) -> dict[str, np.ndarray] | None:
            return next(self.items, None)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        logging.disable(logging.WARNING)  # the tool logs advice on every call
        try:
            quant_pre_process(str(source), str(prepared), skip_symbolic_shape=True)
            if mode.format == "dynamic":
                quantize_dynamic(str(prepared), str(target), weight_type=types[mode.weights],
                                 per_channel=mode.per_channel)
            else:
                quantize_static(str(prepared), str(target), Feeds(),
                                quant_format=QuantFormat.QDQ if mode.format == "qdq" else QuantFormat.QOperator,
                                activation_type=types[mode.activations], weight_type=types[mode.weights],
                                per_channel=mode.per_channel, extra_options={"UseQDQContribOps": mode.contrib})
        finally:
            logging.disable(logging.NOTSET)
            prepared.unlink(missing_ok=True)
    np.savez(out / target.name.replace(".onnx", ".inputs.npz"), **feeds)  # type: ignore[arg-type]
    return target


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, default=DEFAULT_OUT)
    out = p.parse_args().out
    for source in SOURCES:
        for mode in MODES:
            print(quantize(CORPUS / f"{source}.onnx", mode, out))


if __name__ == "__main__":
    main()
