"""The real `.tmfile`s (`$OPSET_TMFILE_DIR`) run on every side: `opset convert` to ONNX on onnxruntime against the
reference kernels on the file itself, and, where tests/tengine_oracle's tm_oracle is built (`OPSET_TENGINE_ORACLE`),
Tengine itself: its dims after prerun equal the registry's for every node output, and its outputs equal the
reference kernels' (so, through the first test, onnxruntime's on the converted model). Files that ship no weights
(OAID's benchmark graphs) get random ones."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from conformance.models.runner import ModelRunner
from conformance.registry import current_registry
from opset.tmfile import read_tmfile, write_tmfile
from opset.tmfile.convert import convert
from opset.tmfile.onnx_view import tensor_names, to_onnx
from opset.tmfile.params import tengine_versions
from opset.tmfile.validate import validate_tmfile
from tests.helpers.tmfile import SHARED, SHARED_IDS, tmfile_dir, with_random_weights

ort = pytest.importorskip("onnxruntime")
ORACLE = os.environ.get("OPSET_TENGINE_ORACLE")
pytestmark = pytest.mark.skipif(not SHARED, reason=f"no real .tmfile at {tmfile_dir()}")
needs_oracle = pytest.mark.skipif(ORACLE is None, reason="OPSET_TENGINE_ORACLE names no built tm_oracle "
                                                         "(tests/tengine_oracle/README.md)")


def _oracle(path: Path, folder: Path, feeds: dict[str, np.ndarray] | None = None) -> tuple[dict[str, list[int]],
                                                                                            list[np.ndarray]]:
    """Tengine's dims of every node output after prerun, and its outputs where inputs are given."""
    assert ORACLE is not None
    args = [ORACLE, str(path), str(folder)]
    for k, value in enumerate((feeds or {}).values()):
        raw = folder / f"input_{k}.bin"
        value.astype("<f4").tofile(raw)
        args += [str(raw), ",".join(str(d) for d in value.shape)]
    done = subprocess.run(args, capture_output=True, text=True, timeout=900, check=False)
    assert done.returncode == 0, f"{path.name}: {done.stderr.strip()}"
    dims: dict[str, list[int]] = {}
    outputs = []
    for line in done.stdout.splitlines():
        parts = line.split("\t")
        if parts[0] == "dims":
            dims[parts[1]] = [int(d) for d in parts[2].split(",")] if parts[2] else []
        elif parts[0] == "output":
            shape = [int(d) for d in parts[3].split(",")] if parts[3] else []
            outputs.append(np.fromfile(folder / f"output_{parts[1]}.bin", "<f4").reshape(shape))
    return dims, outputs


@needs_oracle
@pytest.mark.parametrize("path", SHARED, ids=SHARED_IDS)
def test_tengine_infers_the_registry_dims(path: Path, tmp_path: Path) -> None:
    """Every node output's dims after Tengine's own prerun are the registry's (constants left out: Tengine keeps
    their declared dims, and the registry too)."""
    registry = current_registry()
    model = read_tmfile(path, registry)
    result = validate_tmfile(model, registry)
    names = tensor_names(model.graph)
    versions = tengine_versions(registry)
    lite, _ = _oracle(path, tmp_path)
    compared, differ = 0, []
    for node in model.graph.nodes:
        version = versions.get(node.op_id)
        if version is None or version.name == "Const":
            continue
        for t in node.outputs:
            tensor = model.graph.tensors[t]
            fact = result.facts.get(names[t])
            ours = list(fact.shape) if fact is not None and fact.shape is not None else None
            if tensor.name not in lite or ours is None:
                continue
            compared += 1
            if ours != lite[tensor.name]:
                differ.append(f"{tensor.name} ({version.name}): Tengine {lite[tensor.name]}, registry {ours}")
    assert compared and not differ, "\n".join(differ)


def _prepared(path: Path) -> tuple[Any, Any, dict[str, np.ndarray]]:
    """(the model with weights, its conversion to ONNX, random inputs), or a skip naming the ops that stop it."""
    registry = current_registry()
    model = with_random_weights(read_tmfile(path, registry), seed=1)
    result = convert(model, registry)
    if result.model is None:
        pytest.skip(f"{path.name}: unmapped " + ", ".join(sorted({u.op for u in result.unmapped})))
    rng = np.random.default_rng(2)
    feeds = {vi.name: rng.standard_normal([d.dim_value for d in vi.type.tensor_type.shape.dim]).astype(np.float32)
             for vi in result.model.graph.input}
    return model, result.model, feeds


def _worst(got: list[np.ndarray], want: list[np.ndarray]) -> float:
    """The largest |difference| over every output, relative to the output's scale (at least 1)."""
    worst = 0.0
    for g, w in zip(got, want, strict=True):
        g64, w64 = np.asarray(g, np.float64), np.asarray(w, np.float64)
        assert g64.shape == w64.shape
        worst = max(worst, float(np.abs(g64 - w64).max()) / max(1.0, float(np.abs(w64).max())))
    return worst


@pytest.mark.slow
@pytest.mark.parametrize("path", SHARED, ids=SHARED_IDS)
def test_the_conversion_runs_as_the_file(path: Path) -> None:
    registry = current_registry()
    model, converted, feeds = _prepared(path)
    want = list(ModelRunner(to_onnx(model, registry).model).run(feeds).values())
    session = ort.InferenceSession(converted.SerializeToString(), providers=["CPUExecutionProvider"])
    assert _worst(list(session.run(None, feeds)), want) < 1e-4


@pytest.mark.slow
@needs_oracle
@pytest.mark.parametrize("path", SHARED, ids=SHARED_IDS)
def test_tengine_runs_the_file_as_the_reference_kernels_do(path: Path, tmp_path: Path) -> None:
    """Tengine itself against opset run on the same file (with the same random weights): every file, the ones
    whose conversion stops at an unmapped op too (mssd's DetectionOutput)."""
    registry = current_registry()
    model = with_random_weights(read_tmfile(path, registry), seed=1)
    view = to_onnx(model, registry).model
    rng = np.random.default_rng(2)
    feeds = {vi.name: rng.standard_normal([d.dim_value for d in vi.type.tensor_type.shape.dim]).astype(np.float32)
             for vi in view.graph.input}
    weighted = tmp_path / path.name
    weighted.write_bytes(write_tmfile(model, registry))
    _, tengine = _oracle(weighted, tmp_path, feeds)
    assert _worst(tengine, list(ModelRunner(view).run(feeds).values())) < 1e-4
