"""Every mode of onnxruntime's quantization tool over the exported real models (tests/real_models/
make_quantized_models.py): onnxruntime loads each quantized model, and `opset validate` finds no error in it (one
quantization rule for ai.onnx and com.microsoft: a one-element scale with a one-element zero point, whichever of
[] and [1] each is, quantizes per tensor)."""

from __future__ import annotations

from pathlib import Path

import pytest

from opset.validate import check_model
from tests.real_models.make_models import DEFAULT_OUT as CORPUS
from tests.real_models.make_models import make_corpus
from tests.real_models.make_quantized_models import DEFAULT_OUT, MODES, SOURCES, Mode, model_name, quantize

pytestmark = pytest.mark.slow


def _quantized(source: str, mode: Mode) -> Path:
    path = DEFAULT_OUT / model_name(source, mode)
    if not path.is_file():
        if not (CORPUS / f"{source}.onnx").is_file():  # the exported corpus, written first when missing
            try:
                import torch  # noqa: F401
            except ImportError:
                pytest.fail("the real-model corpus needs the real-models extra: pip install -e '.[real-models]'")
            make_corpus(CORPUS)
        quantize(CORPUS / f"{source}.onnx", mode, DEFAULT_OUT)
    return path


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.tag)
@pytest.mark.parametrize("source", SOURCES)
def test_every_quantizer_mode_validates_clean(source: str, mode: Mode) -> None:
    import onnxruntime as ort

    path = _quantized(source, mode)
    ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])  # the runtime loads it
    errors = [str(d) for d in check_model(path).diagnostics if d.is_error]
    assert not errors, "\n".join(errors[:20])


def test_the_modes_cover_what_the_issue_names() -> None:
    formats = {m.format for m in MODES}
    assert formats == {"qdq", "qoperator", "dynamic"}
    assert {m.weights for m in MODES} == {"u8", "s8"} and {m.per_channel for m in MODES} == {False, True}
    assert any(m.contrib for m in MODES) and any(m.format == "qdq" and not m.contrib for m in MODES)
