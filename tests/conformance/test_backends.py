"""Backend resolution and the protocol adapters."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from onnx import helper

from conformance.backends import BackendError, Unsupported, resolve_backend
from conformance.backends.onnx_backend import OnnxBackendAdapter
from conformance.backends.protocol import BackendCall

HERE = Path(__file__).parent


def _relu_call() -> BackendCall:
    node = helper.make_node("Relu", ["X"], ["Y"])
    x = np.array([-1.0, 2.0], np.float32)
    return BackendCall(node.SerializeToString(), [x], {"": 14}, ["float32"], "ai.onnx", "Relu", 14, ["float"], [[2]])


@pytest.mark.parametrize("name", ["reference", "onnxruntime", "onnx-reference"])
def test_builtins_resolve_and_run_relu(name: str) -> None:
    out = resolve_backend(name).run(_relu_call())
    np.testing.assert_array_equal(out[0], np.array([0.0, 2.0], np.float32))


def test_onnxruntime_backend_module_resolves_unchanged() -> None:
    backend = resolve_backend("onnxruntime.backend")
    assert isinstance(backend.target, OnnxBackendAdapter)
    np.testing.assert_array_equal(backend.run(_relu_call())[0], np.array([0.0, 2.0], np.float32))


def test_module_and_file_paths_resolve() -> None:
    assert resolve_backend("tests.conformance.wrong_backends.relu6_clips_at_5").spec
    assert resolve_backend(f"{HERE / 'wrong_backends' / 'relu6_clips_at_5.py'}:Backend").spec


def test_an_unknown_backend_is_a_readable_error() -> None:
    with pytest.raises(BackendError, match="cannot import module"):
        resolve_backend("no_such_backend_module")


def test_onnxruntime_declines_custom_domains() -> None:
    backend = resolve_backend("onnxruntime")
    call = BackendCall(b"", [], {}, [], "ai.onnx.modified", "Relu6", 1, ["float"])
    assert backend.supports(call) is False


def test_an_unregistered_op_is_unsupported_on_onnxruntime() -> None:
    node = helper.make_node("NoSuchOp", ["X"], ["Y"], domain="com.example")
    call = BackendCall(node.SerializeToString(), [np.zeros(1, np.float32)], {"com.example": 1, "": 14},
                       ["float32"], "com.example", "NoSuchOp", 1, ["float"])
    with pytest.raises(Unsupported):
        resolve_backend("onnxruntime").run(call)


@pytest.mark.parametrize(("domain", "op"), [("foo.bar", "Relu"), ("", "NotAnOp")])
def test_reference_reports_what_the_registry_lacks_as_unsupported(domain: str, op: str) -> None:
    from conformance.backends.reference import ReferenceBackend

    node = helper.make_node(op, ["x"], ["y"], domain=domain)
    with pytest.raises(Unsupported):
        ReferenceBackend().run(node, [np.zeros(2, np.float32)], {domain: 13})


@pytest.mark.parametrize("element", ["int4", "uint4", "int2", "uint2", "float4e2m1"])
@pytest.mark.parametrize("shape", [[], [3], [2, 3]])
def test_onnxruntime_gives_sub_byte_outputs_unpacked(element: str, shape: list[int]) -> None:
    """onnxruntime's Python API has no numpy type for 4-bit and 2-bit tensors ("No corresponding Numpy type"); the
    adapter reads the OrtValue's packed bytes: a Constant of every such type, odd element counts included, gives
    back exactly its values."""
    from onnx import numpy_helper

    from conformance.element_types import numpy_dtype

    dtype = numpy_dtype(element)
    values = np.resize(np.array([1, -2, 3, 0, -1, 2], np.float32), shape)
    if element.startswith("uint"):
        values = np.abs(values)
    expected = values.astype(dtype)
    node = helper.make_node("Constant", [], ["Y"], value=numpy_helper.from_array(expected, "v"))
    call = BackendCall(node.SerializeToString(), [], {"": 25}, [dtype.name], "ai.onnx", "Constant", 25, [element],
                       [shape])
    out = resolve_backend("onnxruntime").run(call)[0]
    assert out.dtype == expected.dtype and out.shape == expected.shape
    np.testing.assert_array_equal(out.astype(np.float32), expected.astype(np.float32))
