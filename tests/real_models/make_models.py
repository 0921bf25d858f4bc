"""Write a corpus of real models, as real tools write them, into a folder (default build/real-models/):

- torch.onnx.export (the dynamo exporter, through onnxscript) of a tiny BERT, GPT-2 and Llama from
  transformers, and of a small convolutional network; the TorchScript exporter (opset 14, eager attention)
  of a tiny BERT, the form onnxruntime's transformer optimizer recognises;
- onnxruntime's graph optimizer at the basic, extended and all levels on each dynamo export (extended writes
  com.microsoft's fused ops: FusedConv, FusedMatMul, FusedGemm, BiasGelu, FastGelu, QuickGelu,
  SkipLayerNormalization; all adds the com.microsoft.nchwc layout ops);
- onnxruntime's transformer optimizer on the TorchScript BERT (Attention, EmbedLayerNormalization,
  SkipLayerNormalization, BiasGelu), then its dynamic quantization (QAttention, QEmbedLayerNormalization),
  and its 4-bit weight quantizer on the plain TorchScript BERT (MatMulNBits);
- onnxruntime's quantization tool: dynamic quantization (DynamicQuantizeLinear, MatMulInteger), static
  QDQ quantization (QuantizeLinear / DequantizeLinear pairs) and static QOperator quantization (QLinearConv,
  QGemm, QLinearSigmoid ...) of the convolutional network;
- skl2onnx's conversions of scikit-learn models (tests/real_models/make_sklearn_models.py, `sklearn_*`).

Each model comes with `<name>.inputs.npz`, inputs it runs on. Nothing is committed: the slow test
tests/real_models/test_real_models.py writes the corpus when it is missing. Needs the `real-models` extra
(`pip install -e '.[real-models]'`: torch, transformers, onnxscript, scikit-learn, skl2onnx).

    python -m tests.real_models.make_models [--out DIR]
"""

from __future__ import annotations

import argparse
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import onnx

from tests.real_models.make_sklearn_models import make_sklearn_corpus

DEFAULT_OUT = Path(__file__).resolve().parents[2] / "build" / "real-models"


def _export(module: object, args: tuple[object, ...], path: Path, names: list[str],
            dynamic: tuple[dict[int, str], ...]) -> None:
    """`dynamic`: per positional argument, its dynamic axes ({axis: name})."""
    import torch

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(module, args, str(path), dynamo=True, input_names=names, dynamic_shapes=dynamic,
                          verbose=False)
    model = onnx.load(str(path))  # the exporter may write weights to a side file: keep one self-contained file
    onnx.save(model, str(path), save_as_external_data=False)
    side = path.with_name(path.name + ".data")
    if side.exists():
        side.unlink()


def bert(out: Path) -> dict[str, np.ndarray]:
    import torch
    from transformers import BertConfig, BertModel

    torch.manual_seed(0)
    config = BertConfig(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=128,
                        vocab_size=100, max_position_embeddings=64)
    model = BertModel(config).eval()
    ids = torch.randint(0, 100, (2, 8))
    mask = torch.ones(2, 8, dtype=torch.int64)
    _export(model, (ids, mask), out / "bert_tiny.onnx", ["input_ids", "attention_mask"],
            ({0: "batch", 1: "seq"}, {0: "batch", 1: "seq"}))
    return {"input_ids": ids.numpy(), "attention_mask": mask.numpy()}


def gpt2(out: Path) -> dict[str, np.ndarray]:
    import torch
    from transformers import GPT2Config, GPT2Model

    torch.manual_seed(0)
    config = GPT2Config(n_embd=64, n_layer=2, n_head=4, vocab_size=100, n_positions=64)
    model = GPT2Model(config).eval()
    model.config.use_cache = False
    ids = torch.randint(0, 100, (2, 8))
    _export(model, (ids,), out / "gpt2_tiny.onnx", ["input_ids"], ({0: "batch", 1: "seq"},))
    return {"input_ids": ids.numpy()}


def llama(out: Path) -> dict[str, np.ndarray]:
    import torch
    from transformers import LlamaConfig, LlamaModel

    torch.manual_seed(0)
    config = LlamaConfig(hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4,
                         num_key_value_heads=2, vocab_size=100, max_position_embeddings=64)
    model = _last_hidden(LlamaModel(config).eval())
    ids = torch.randint(0, 100, (2, 8))
    _export(model, (ids,), out / "llama_tiny.onnx", ["input_ids"], ({0: "batch", 1: "seq"},))
    return {"input_ids": ids.numpy()}


def _last_hidden(model: Any) -> Any:
    """A transformers model called with keywords (transformers 5 takes no positional flags), giving its last
    hidden state: the module torch's exporters trace."""
    import torch

    class LastHidden(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.model = model

        def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor | None = None,
                    token_type_ids: torch.Tensor | None = None) -> torch.Tensor:
            given = {"attention_mask": attention_mask, "token_type_ids": token_type_ids}
            return self.model(input_ids=input_ids, **{k: v for k, v in given.items() if v is not None},
                              use_cache=False, return_dict=False)[0]

    return LastHidden().eval()


def bert_torchscript(out: Path) -> dict[str, np.ndarray]:
    """BERT as the TorchScript exporter writes it at opset 14, with eager attention: the graph onnxruntime's
    transformer optimizer fuses into Attention and EmbedLayerNormalization."""
    import torch
    from transformers import BertConfig, BertModel

    torch.manual_seed(0)
    config = BertConfig(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=128,
                        vocab_size=100, max_position_embeddings=64)
    config._attn_implementation = "eager"
    model = _last_hidden(BertModel(config).eval())
    ids = torch.randint(0, 100, (2, 8))
    mask = torch.ones(2, 8, dtype=torch.int64)
    mask[1, 6:] = 0
    types = torch.zeros(2, 8, dtype=torch.int64)
    names = ["input_ids", "attention_mask", "token_type_ids"]
    path = out / "bert_ts.onnx"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(model, (ids, mask, types), str(path), dynamo=False, opset_version=14, input_names=names,
                          output_names=["last_hidden_state"],
                          dynamic_axes={n: {0: "batch", 1: "seq"} for n in names})
    return {"input_ids": ids.numpy(), "attention_mask": mask.numpy(), "token_type_ids": types.numpy()}


def convnet(out: Path) -> dict[str, np.ndarray]:
    import torch
    from torch import nn

    torch.manual_seed(0)
    model = nn.Sequential(
        nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2, ceil_mode=True),
        nn.Conv2d(8, 16, 3, stride=2, padding=1, groups=2), nn.Hardswish(), nn.AvgPool2d(2),
        nn.Upsample(scale_factor=2, mode="nearest"), nn.Conv2d(16, 8, 1), nn.Sigmoid(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 10), nn.LogSoftmax(dim=-1)).eval()
    x = torch.randn(2, 3, 32, 32)
    _export(model, (x,), out / "convnet.onnx", ["image"], ({0: "batch"},))
    return {"image": x.numpy()}


ORT_LEVELS = ("basic", "extended", "all")  # the corpus's `<name>.ort_<level>.onnx`


def _ort_optimized(source: Path, target: Path, level: str) -> None:
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.graph_optimization_level = {"basic": ort.GraphOptimizationLevel.ORT_ENABLE_BASIC,
                                        "extended": ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED,
                                        "all": ort.GraphOptimizationLevel.ORT_ENABLE_ALL}[level]
    options.optimized_model_filepath = str(target)
    options.log_severity_level = 3  # "all" warns that its layout ops fit this machine: that is the point here
    ort.InferenceSession(str(source), options, providers=["CPUExecutionProvider"])


def _transformer_optimized(source: Path, out: Path) -> list[str]:
    """onnxruntime's transformer optimizer (BERT fusions), its dynamic quantization of the result, and its 4-bit
    weight quantizer on the source."""
    from onnxruntime.quantization import quantize_dynamic
    from onnxruntime.quantization.matmul_nbits_quantizer import MatMulNBitsQuantizer
    from onnxruntime.transformers.optimizer import optimize_model

    fused = out / f"{source.stem}.fused.onnx"
    optimize_model(str(source), model_type="bert", num_heads=4, hidden_size=64).save_model_to_file(str(fused))
    dynamic = out / f"{source.stem}.fused.qdynamic.onnx"
    quantize_dynamic(str(fused), str(dynamic), extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT})
    nbits = out / f"{source.stem}.nbits.onnx"
    quantizer = MatMulNBitsQuantizer(onnx.load(str(source)), block_size=32, is_symmetric=False)
    quantizer.process()
    quantizer.model.save_model_to_file(str(nbits))
    return [fused.name, dynamic.name, nbits.name]


def _quantized(source: Path, out: Path, feeds: dict[str, np.ndarray]) -> list[str]:
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, quantize_dynamic, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    prepared = out / f"{source.stem}.prep.onnx"
    quant_pre_process(str(source), str(prepared), skip_symbolic_shape=True)
    dynamic = out / f"{source.stem}.qdynamic.onnx"
    quantize_dynamic(str(prepared), str(dynamic))

    class Reader(CalibrationDataReader):
        def __init__(self) -> None:
            self.items = iter([feeds])

        def get_next(self) -> dict[str, np.ndarray] | None:
            return next(self.items, None)

    qdq = out / f"{source.stem}.qdq.onnx"
    quantize_static(str(prepared), str(qdq), Reader(), quant_format=QuantFormat.QDQ)
    qoperator = out / f"{source.stem}.qoperator.onnx"
    quantize_static(str(prepared), str(qoperator), Reader(), quant_format=QuantFormat.QOperator)
    prepared.unlink()
    return [dynamic.name, qdq.name, qoperator.name]


MAKERS: dict[str, Callable[[Path], dict[str, np.ndarray]]] = {
    "bert_tiny": bert, "gpt2_tiny": gpt2, "llama_tiny": llama, "convnet": convnet, "bert_ts": bert_torchscript}


def derived_names(name: str) -> list[str]:
    """The corpus models made from MAKERS' model `name` (itself first)."""
    if name == "bert_ts":
        return [f"{name}.onnx", f"{name}.fused.onnx", f"{name}.fused.qdynamic.onnx", f"{name}.nbits.onnx"]
    names = [f"{name}.onnx"] + [f"{name}.ort_{level}.onnx" for level in ORT_LEVELS]
    if name == "convnet":
        names += [f"{name}.qdynamic.onnx", f"{name}.qdq.onnx", f"{name}.qoperator.onnx"]
    return names


def make_corpus(out: Path = DEFAULT_OUT) -> list[Path]:
    """Write every model (and its inputs) into `out`; the paths of the models."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, maker in MAKERS.items():
        feeds = maker(out)
        source = out / f"{name}.onnx"
        onnx.checker.check_model(onnx.load(source), full_check=True)
        names = [source.name]
        if name == "bert_ts":
            names += _transformer_optimized(source, out)
        else:
            for level in ORT_LEVELS:
                optimized = out / f"{name}.ort_{level}.onnx"
                _ort_optimized(source, optimized, level)
                names.append(optimized.name)
        if name == "convnet":
            names += _quantized(source, out, feeds)
        assert names == derived_names(name), (names, derived_names(name))
        for model_name in names:
            np.savez(out / model_name.replace(".onnx", ".inputs.npz"), **feeds)  # type: ignore[arg-type]
            written.append(out / model_name)
    return written + make_sklearn_corpus(out)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, default=DEFAULT_OUT)
    for path in make_corpus(p.parse_args().out):
        print(path)


if __name__ == "__main__":
    main()
