"""The built-in adapters of third-party libraries (openvino, tract, onnx2torch) on a handful of ops, with their
extras installed: drawn cases pass, bridged element types come back bit for bit, the library's own "cannot" is
unsupported. Marked slow: CI's slow stage installs `.[openvino,tract,torch]` and sets OPSET_REQUIRE_BACKENDS=1, so
there a missing extra fails these tests instead of skipping them."""

from __future__ import annotations

import importlib.util
import os
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from onnx import TensorProto, helper

from conformance.backends import Unsupported, resolve_backend
from conformance.backends.protocol import Backend, BackendCall
from conformance.onnx_model import input_roles
from conformance.registry import current_registry
from conformance.runner.checks import check_case
from conformance.runner.settings import CheckSettings
from conformance.strategies import op_cases

pytestmark = pytest.mark.slow

EXTRAS = {"openvino": ("openvino", "openvino"), "tract": ("tract", "tract"), "onnx2torch": ("onnx2torch", "torch")}


def backend(name: str) -> Backend:
    module, extra = EXTRAS[name]
    if importlib.util.find_spec(module) is None:
        message = f"the {extra} extra is not installed: pip install -e '.[{extra}]' -c constraints.txt"
        if os.environ.get("OPSET_REQUIRE_BACKENDS"):
            pytest.fail(f"OPSET_REQUIRE_BACKENDS is set but {message}")
        pytest.skip(message)
    return resolve_backend(name)


# cells every adapter runs right (drawn by the registry's strategies and checked as conform checks them)
# (none of them a known gap in an expectations file: onnx2torch's Transpose, for one, crashes on a 0-d input's empty
# perm, which the registry's draws reach)
CELLS = [("Relu", 14, "float"), ("Add", 14, "int64"), ("Mul", 14, "float16"), ("Reshape", 14, "float"),
         ("Conv", 11, "float"), ("Concat", 13, "int32"),  # versions onnx2torch has converters for
         ("BatchNormalization", 9, "float")]  # no training_mode before 14 (onnx2torch ignores it, tract refuses it)


@pytest.mark.parametrize("name", sorted(EXTRAS))
def test_the_cells_every_adapter_runs_right_are_no_known_gap(name: str) -> None:
    from conformance.cli import DEFAULT_EXPECTATIONS
    from conformance.runner.expectations import expectation_for, load_expectations

    known = load_expectations(DEFAULT_EXPECTATIONS / f"{name}.yaml")
    assert [c for c in CELLS if expectation_for(("ai.onnx", *c), known)] == []


@pytest.mark.parametrize("name", sorted(EXTRAS))
@pytest.mark.parametrize(("op", "since", "dtype"), CELLS)
def test_drawn_cases_pass(name: str, op: str, since: int, dtype: str) -> None:
    target = backend(name)
    version = current_registry().op("ai.onnx", op).version(since)
    ran: list[int] = []

    @settings(max_examples=5, deadline=None, database=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(case=op_cases(version, dtype))
    def check(case: Any) -> None:
        try:
            check_case(case, target, CheckSettings(spec=name))
        except Unsupported:  # a draw the library says it cannot run (onnx2torch: Conv's SAME_* auto_pad)
            return
        ran.append(1)

    check()
    assert ran, f"{name} declined every draw of {version.signature}[{dtype}]"


def _call(op: str, inputs: list[Any], out_dtype: str, opset: int, **attributes: Any) -> BackendCall:
    names = [f"x{i}" for i in range(len(inputs))]
    node = helper.make_node(op, names, ["y"], **attributes)
    version = current_registry().resolve("ai.onnx", op, opset)
    shape = list(inputs[0].shape)
    return BackendCall(node.SerializeToString(), inputs, {"": opset}, [out_dtype], "ai.onnx", op, version.since,
                       [out_dtype], [shape], input_roles=tuple(input_roles(version, len(inputs))))


@pytest.mark.parametrize(("name", "bridged"), [("openvino", True), ("onnx2torch", True), ("tract", False)])
def test_bfloat16_goes_in_and_out_bit_for_bit(name: str, bridged: bool) -> None:
    x = np.array([1.5, -2.0, 3.0e38, -0.0], ml_dtypes.bfloat16)
    call = _call("Neg", [x], "bfloat16", 13)
    if not bridged:
        with pytest.raises(Unsupported, match="Unknown DatumType"):  # tract has no bfloat16: its loader says so
            backend(name).run(call)
        return
    y = backend(name).run(call)[0]
    assert y.dtype == x.dtype
    assert y.view(np.uint16).tolist() == (-x).view(np.uint16).tolist()


def test_openvino_takes_and_gives_packed_int4() -> None:
    x = np.array([1, -2, 7, -8, 0], ml_dtypes.int4)
    y = backend("openvino").run(_call("Identity", [x], "int4", 21))[0]
    assert y.dtype == x.dtype and y.astype(np.int8).tolist() == [1, -2, 7, -8, 0]


def test_openvino_takes_float8_bits() -> None:
    x = np.array([1.5, -2.0, 448.0], ml_dtypes.float8_e4m3fn)
    y = backend("openvino").run(_call("Cast", [x], "float32", 21, to=TensorProto.FLOAT))[0]
    assert y.tolist() == [1.5, -2.0, 448.0]


def test_an_op_the_library_has_no_converter_for_is_unsupported() -> None:
    for name, words in (("openvino", "No conversion rule found"), ("tract", "Unimplemented("),
                        ("onnx2torch", "Converter is not implemented")):
        node = helper.make_node("NoSuchOp", ["x0"], ["y"])
        call = BackendCall(node.SerializeToString(), [np.zeros(2, np.float32)], {"": 21}, ["float32"], "ai.onnx",
                           "NoSuchOp", 21, ["float"], [[2]])
        with pytest.raises(Unsupported, match=words.replace("(", r"\(")):
            backend(name).run(call)


def test_each_asks_for_constant_parameters() -> None:
    assert {name: backend(name).constant_inputs for name in EXTRAS} == {"openvino": "params", "tract": "all",
                                                                        "onnx2torch": "all"}


def test_tract_cannot_give_a_string_output() -> None:
    call = _call("Cast", [np.array([1.5], np.float32)], "object", 13, to=TensorProto.STRING)
    with pytest.raises(Unsupported, match="Unsupported DatumType in the public API String"):
        backend("tract").run(call)


def test_onnx2torch_normalizes_with_the_running_statistics() -> None:
    """Inference mode: one value per channel is normalized by the given mean and variance (in training mode torch
    would refuse it, or use the batch's own statistics)."""
    x, scale, bias = np.array([[3.0]], np.float32), np.array([2.0], np.float32), np.array([0.5], np.float32)
    mean, var = np.array([1.0], np.float32), np.array([4.0], np.float32)
    call = _call("BatchNormalization", [x, scale, bias, mean, var], "float32", 15, epsilon=0.0)
    y = backend("onnx2torch").run(call)[0]
    assert y.tolist() == [[2.5]]  # (3 - 1) / 2 * 2 + 0.5


def test_openvino_is_fed_only_the_inputs_its_model_kept() -> None:
    """BatchNormalization in training mode asked for Y and running_mean: OpenVINO drops input_var, which no output
    reads, and refused a tensor for it ('Port for tensor name ... was not found') until the adapter fed only the
    inputs the compiled model kept. The outputs are the batch-statistics ones the spec gives."""
    x = np.array([[1.0, 2.0], [3.0, 6.0]], np.float32)
    scale, bias = np.array([1.0, 2.0], np.float32), np.array([0.0, 1.0], np.float32)
    mean, var = np.array([0.5, -1.0], np.float32), np.array([1.0, 2.0], np.float32)
    node = helper.make_node("BatchNormalization", [f"x{i}" for i in range(5)], ["y", "running_mean"],
                            training_mode=1, momentum=0.5, epsilon=0.0)
    version = current_registry().resolve("ai.onnx", "BatchNormalization", 15)
    call = BackendCall(node.SerializeToString(), [x, scale, bias, mean, var], {"": 15}, ["float32", "float32"],
                       "ai.onnx", "BatchNormalization", 15, ["float32"], [[2, 2], [2]],
                       input_roles=tuple(input_roles(version, 5)))
    y, running_mean = backend("openvino").run(call)
    batch_mean, batch_var = x.mean(axis=0), x.var(axis=0)
    np.testing.assert_allclose(y, (x - batch_mean) / np.sqrt(batch_var) * scale + bias, rtol=1e-6)
    np.testing.assert_allclose(running_mean, mean * 0.5 + batch_mean * 0.5, rtol=1e-6)
