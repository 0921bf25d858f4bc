"""Every one-node model conform builds passes `onnx.checker.check_model(full_check=True)`.

Model-level backends get a case as a one-node model (`conformance.onnx_model.make_model`), and an
`onnx.backend` backend such as onnxruntime.backend checks it before running it: an output declared without a
shape or a type fails that check, and then every cell fails. Each case below goes the whole way a model-level
backend sees it, property reruns included: the backend here checks every model it is given (full check,
onnx's strict shape inference included) and runs it on the reference model runner.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
import pytest
from hypothesis import HealthCheck, given, settings

from conformance.backends.protocol import Backend, BackendCall, Unsupported
from conformance.models import run_model
from conformance.onnx_model import make_model
from conformance.registry import current_registry
from conformance.runner.checks import InvalidCase, check_case
from conformance.runner.settings import CheckSettings
from conformance.strategies import cell_dtypes, op_cases

# many ops of every domain: elementwise ops with property reruns, variadic outputs, control flow, sequences,
# optionals, strings, maps, random outputs and ops onnx has no schema for
CELLS = [
    ("ai.onnx", "Relu", 14), ("ai.onnx", "Add", 14), ("ai.onnx", "Conv", 11), ("ai.onnx", "Gemm", 13),
    ("ai.onnx", "Softmax", 13), ("ai.onnx", "Split", 18), ("ai.onnx", "Reshape", 14), ("ai.onnx", "TopK", 11),
    ("ai.onnx", "NonZero", 13), ("ai.onnx", "Shape", 15), ("ai.onnx", "If", 13), ("ai.onnx", "Loop", 13),
    ("ai.onnx", "Scan", 11), ("ai.onnx", "SequenceInsert", 11), ("ai.onnx", "SplitToSequence", 11),
    ("ai.onnx", "ConcatFromSequence", 11), ("ai.onnx", "SequenceEmpty", 11), ("ai.onnx", "Optional", 15),
    ("ai.onnx", "OptionalGetElement", 18), ("ai.onnx", "OptionalHasElement", 18), ("ai.onnx", "StringNormalizer", 10),
    ("ai.onnx", "RegexFullMatch", 20), ("ai.onnx", "StringSplit", 20), ("ai.onnx", "Dropout", 13),
    ("ai.onnx", "RandomNormalLike", 1), ("ai.onnx", "LSTM", 14), ("ai.onnx", "Unique", 11),
    ("ai.onnx.ml", "Scaler", 1), ("ai.onnx.ml", "ZipMap", 1), ("ai.onnx.ml", "LabelEncoder", 2),
    ("ai.onnx.ml", "TreeEnsembleRegressor", 3), ("ai.onnx.preview.training", "Adam", 1),
    ("com.microsoft", "FusedConv", 1), ("com.microsoft", "QLinearAdd", 1), ("com.microsoft", "Gelu", 1),
    ("com.microsoft.nchwc", "ReorderInput", 1), ("ai.onnx.modified", "Relu6", 1), ("tengine", "L2Pool", 1),
]


class CheckedModels:
    """A model-level backend that checks every model it is given and runs it on the reference model runner."""

    def __init__(self) -> None:
        self.models = 0

    def run(self, model: onnx.ModelProto, feeds: dict[str, Any]) -> list[Any]:
        onnx.checker.check_model(model, full_check=True)
        self.models += 1
        values = run_model(model, feeds)
        return [values[o.name] for o in model.graph.output]


def _cells() -> list[tuple[str, str, int, str]]:
    registry = current_registry()
    out = []
    for domain, op, since in CELLS:
        version = registry.op(domain, op).version(since)
        out.append((domain, op, since, cell_dtypes(version)[0][0]))
    return out


@pytest.mark.parametrize(("domain", "op", "since", "dtype"), _cells())
def test_every_model_of_a_cell_passes_the_full_check(domain: str, op: str, since: int, dtype: str) -> None:
    version = current_registry().op(domain, op).version(since)
    target = CheckedModels()
    backend = Backend(target, "checked-models")
    checked: list[int] = []

    @settings(max_examples=8, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(case=op_cases(version, dtype))
    def check(case: Any) -> None:
        try:
            check_case(case, backend, CheckSettings(spec="checked-models"))
        except (Unsupported, InvalidCase):
            return
        checked.append(1)

    check()
    assert target.models >= len(checked) > 0, f"no case of {op} ran"


def test_an_unknown_output_shape_is_declared_with_named_dims() -> None:
    """A tensor output whose dims are unknown gets dim_params, never a missing shape; one whose rank (or type) is
    unknown too gets what onnx's inference finds."""
    node = onnx.helper.make_node("Relu", ["X"], ["Y"])
    x = np.zeros((2, 3), dtype=np.float32)
    for shape in ([None, None], None):
        model = make_model(node, [x], {"": 14}, ["float32"], [shape])
        onnx.checker.check_model(model, full_check=True)
        dims = model.graph.output[0].type.tensor_type.shape.dim
        assert [d.dim_value or d.dim_param for d in dims] == (["Y_d0", "Y_d1"] if shape else [2, 3])
    untyped = make_model(node, [x], {"": 14})  # the node-suite's calls declare no tensor types: onnx infers them
    onnx.checker.check_model(untyped, full_check=True)
    assert untyped.graph.output[0].type.tensor_type.elem_type == onnx.TensorProto.FLOAT



def test_an_omitted_optional_output_is_no_graph_output_and_keeps_its_position() -> None:
    """LSTM asked only for Y_h: the model declares Y_h alone (an output named "" fails the checker), and a
    model-level backend's answer comes back at Y_h's node position, None at the omitted Y's."""
    node = onnx.helper.make_node("LSTM", ["X", "W", "R"], ["", "Y_h"], hidden_size=2)
    rng = np.random.default_rng(0)
    x, w, r = (rng.standard_normal(s).astype(np.float32) for s in ((3, 1, 2), (1, 8, 2), (1, 8, 2)))
    model = make_model(node, [x, w, r], {"": 14}, ["float32", "float32"], [None, [1, 1, 2]])
    onnx.checker.check_model(model, full_check=True)
    assert [o.name for o in model.graph.output] == ["Y_h"]

    class Models:
        def run(self, model: onnx.ModelProto, feeds: dict[str, Any]) -> list[Any]:
            return [run_model(model, feeds)["Y_h"]]

    call = BackendCall(node_bytes=node.SerializeToString(), inputs=[x, w, r], opset_imports={"": 14},
                       output_dtypes=["float32", "float32"], domain="ai.onnx", op="LSTM", version=14,
                       dtypes=["float"], output_shapes=[None, [1, 1, 2]])
    outputs = Backend(Models(), "models").run(call)
    assert outputs[0] is None and outputs[1].shape == (1, 1, 2)
