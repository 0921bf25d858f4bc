"""`--constant-inputs` and a backend's `constant_inputs`: which inputs reach a backend as initializers (checked on the
model the backend receives), which positions a node-mode backend is told about, and the whole path from the command
line to the backend's worker."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import pytest
from onnx import helper

from conformance.backends import BackendError
from conformance.backends.protocol import Backend, BackendCall
from conformance.onnx_model import constant_positions, input_roles
from conformance.registry import current_registry

ROOT = Path(__file__).resolve().parents[3]
BACKENDS = "tests.conformance.backends.constant_shape_backends"


class Recorder:
    """A model-level backend that keeps the model it gets and answers zeros of the declared outputs."""

    def __init__(self, constant_inputs: str | None = None) -> None:
        if constant_inputs is not None:
            self.constant_inputs = constant_inputs
        self.models: list[onnx.ModelProto] = []
        self.feeds: list[dict[str, Any]] = []

    def run(self, model: onnx.ModelProto, feeds: dict[str, Any]) -> list[Any]:
        self.models.append(model)
        self.feeds.append(feeds)
        return [np.zeros(1, np.float32) for _ in model.graph.output]


def _conv_call(mode: str) -> BackendCall:
    version = current_registry().resolve("ai.onnx", "Conv", 22)
    node = helper.make_node("Conv", ["X", "W", "B"], ["Y"])
    inputs = [np.zeros((1, 1, 3, 3), np.float32), np.ones((1, 1, 2, 2), np.float32), np.zeros(1, np.float32)]
    return BackendCall(node.SerializeToString(), inputs, {"": 22}, ["float32"], "ai.onnx", "Conv", 22, ["float"],
                       [[1, 1, 2, 2]], input_roles=tuple(input_roles(version, 3)), constant_inputs=mode)


def _reshape_call(mode: str) -> BackendCall:
    version = current_registry().resolve("ai.onnx", "Reshape", 21)
    node = helper.make_node("Reshape", ["data", "shape"], ["reshaped"])
    inputs = [np.zeros((2, 3), np.float32), np.array([3, 2], np.int64)]
    return BackendCall(node.SerializeToString(), inputs, {"": 21}, ["float32"], "ai.onnx", "Reshape", 21,
                       ["float"], [[3, 2]], input_roles=tuple(input_roles(version, 2)), constant_inputs=mode)


@pytest.mark.parametrize(("mode", "constants"), [("none", set()), ("params", set()), ("all", {"W", "B"})])
def test_conv_weights_become_initializers_only_with_all(mode: str, constants: set[str]) -> None:
    recorder = Recorder()
    Backend(recorder, "recorder").run(_conv_call(mode))
    model = recorder.models[0]
    assert {t.name for t in model.graph.initializer} == constants
    assert {i.name for i in model.graph.input} == {"X", "W", "B"} - constants
    assert set(recorder.feeds[0]) == {"X", "W", "B"} - constants
    for t in model.graph.initializer:  # the values the case drew, not zeros of the right shape
        assert np.array_equal(onnx.numpy_helper.to_array(t), _conv_call(mode).inputs[["X", "W", "B"].index(t.name)])
    onnx.checker.check_model(model)


@pytest.mark.parametrize(("mode", "stated", "constants"), [
    ("params", None, {"shape"}), ("all", None, {"shape"}), ("none", "params", set()),
    ("auto", "params", {"shape"}), ("auto", "all", {"shape"}), ("auto", None, set()), ("auto", "none", set())])
def test_reshape_shape_follows_the_run_else_the_backend(mode: str, stated: str | None, constants: set[str]) -> None:
    recorder = Recorder(stated)
    Backend(recorder, "recorder").run(_reshape_call(mode))
    assert {t.name for t in recorder.models[0].graph.initializer} == constants


def test_a_node_mode_backend_is_told_the_constant_positions() -> None:
    seen: list[Any] = []

    class NodeBackend:
        constant_inputs = "params"

        def run(self, node: onnx.NodeProto, inputs: list[Any], constant_inputs: frozenset[int]) -> list[Any]:
            seen.append(constant_inputs)
            return [inputs[0].reshape(inputs[1])]

    class KeywordsBackend:
        def run(self, node: onnx.NodeProto, inputs: list[Any], **kwargs: Any) -> list[Any]:
            seen.append(kwargs.get("constant_inputs"))
            return [inputs[0].reshape(inputs[1])]

    Backend(NodeBackend(), "node").run(_reshape_call("auto"))
    Backend(NodeBackend(), "node").run(_reshape_call("none"))
    Backend(KeywordsBackend(), "kwargs").run(_reshape_call("params"))
    Backend(KeywordsBackend(), "kwargs").run(_reshape_call("none"))  # **kwargs: told only when some input is constant
    assert seen == [frozenset({1}), frozenset(), frozenset({1}), None]


def test_a_wrong_constant_inputs_attribute_is_a_backend_error() -> None:
    with pytest.raises(BackendError, match="constant_inputs is 'weights'"):
        Backend(Recorder("weights"), "recorder")


def test_positions_by_role() -> None:
    roles = ["data", "parameter", "weight", "parameter"]
    inputs: list[Any] = [np.zeros(1), np.zeros(1), np.zeros(1), None]  # an omitted optional input stays out
    assert constant_positions("none", roles, inputs) == frozenset()
    assert constant_positions("params", roles, inputs) == frozenset({1})
    assert constant_positions("all", roles, inputs) == frozenset({1, 2})
    with pytest.raises(ValueError, match="not one of"):
        constant_positions("auto", roles, inputs)
    concat = current_registry().resolve("ai.onnx", "Concat", 13)
    assert input_roles(concat, 3) == ["data"] * 3  # a variadic input's values share its role


def _conform(*args: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "conformance.cli", "--op", "Reshape", "--domain", "ai.onnx",
                           "--opset", "21", "--max-examples", "3", "--timeout", "60", "--report",
                           str(tmp_path / "r.json"), "--repro-dir", str(tmp_path / "repro"), *args],
                          capture_output=True, text=True, cwd=ROOT)


def test_the_run_passes_only_when_the_shape_is_constant(tmp_path: Path) -> None:
    asked = _conform("--backend", f"{BACKENDS}:NeedsConstantShape", "--constant-inputs", "params", tmp_path=tmp_path)
    assert asked.returncode == 0, asked.stdout + asked.stderr
    cells = json.loads((tmp_path / "r.json").read_text())["cells"]
    assert {c["status"] for c in cells.values()} == {"pass", "unsupported"}  # strings: supports() declines them
    told = _conform("--backend", f"{BACKENDS}:AsksForParams", tmp_path=tmp_path)  # auto: the backend's own word
    assert told.returncode == 0, told.stdout + told.stderr
    refused = _conform("--backend", f"{BACKENDS}:AsksForParams", "--constant-inputs", "none", tmp_path=tmp_path)
    assert refused.returncode == 1
    assert "shape input 'shape' is variable" in refused.stdout
    assert "--constant-inputs none" in refused.stdout  # the replay command repeats the run's choice


def test_a_wrong_backend_is_caught_with_constant_inputs(tmp_path: Path) -> None:
    wrong = _conform("--backend", f"{BACKENDS}:ReversesData", tmp_path=tmp_path)
    assert wrong.returncode == 1, wrong.stdout + wrong.stderr
    cells = json.loads((tmp_path / "r.json").read_text())["cells"]
    assert any(c["status"] == "fail" for c in cells.values())
    bundle = next(Path(c["repro"]) for c in cells.values() if c["status"] == "fail")
    replayed = subprocess.run([sys.executable, "-m", "conformance.cli", "--backend", f"{BACKENDS}:ReversesData",
                               "--replay", str(bundle)], capture_output=True, text=True, cwd=ROOT)
    assert replayed.returncode == 1 and "FAIL" in replayed.stderr


def test_the_report_and_the_bundle_say_which_inputs_were_constant(tmp_path: Path) -> None:
    """`auto` resolves to the backend's own word in the report; case.json keeps the run's option, whose replay
    command repeats it only when given, and a replay can change it."""
    wrong = _conform("--backend", f"{BACKENDS}:ReversesData", tmp_path=tmp_path)
    data = json.loads((tmp_path / "r.json").read_text())
    assert wrong.returncode == 1 and data["constant_inputs"] == "params"
    bundle = next(Path(c["repro"]) for c in data["cells"].values() if c["status"] == "fail")
    meta = json.loads((bundle / "case.json").read_text())
    assert meta["constant_inputs"] == "auto" and "--constant-inputs" not in meta["command"]
    replayed = subprocess.run([sys.executable, "-m", "conformance.cli", "--backend", f"{BACKENDS}:ReversesData",
                               "--replay", str(bundle), "--constant-inputs", "none"],
                              capture_output=True, text=True, cwd=ROOT)
    assert replayed.returncode == 1 and "shape input 'shape' is variable" in replayed.stderr
    given = _conform("--backend", f"{BACKENDS}:NeedsConstantShape", "--constant-inputs", "all", tmp_path=tmp_path)
    assert given.returncode == 0 and json.loads((tmp_path / "r.json").read_text())["constant_inputs"] == "all"
