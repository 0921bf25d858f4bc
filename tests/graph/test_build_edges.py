"""The edges of the typed API a user meets first: attribute types, build's messages, Split's count, shared weights."""

from __future__ import annotations

import re

import numpy as np
import onnx
import pytest

from opset.graph import BuildError
from opset.ops import build, constant, inputs
from opset.ops.ai_onnx import v18, v22
from tests.helpers.oracles import run_onnxruntime


@pytest.mark.parametrize(("attributes", "shown"), [
    ({"perm": "10"}, "got str '10'"),
    ({"perm": [1.5, 0]}, "got list [1.5, 0]"),
    ({"perm": [True, 0]}, "got list [True, 0]"),
])
def test_an_attribute_of_the_wrong_python_type_is_a_build_error_naming_it(attributes: dict[str, object],
                                                                          shown: str) -> None:
    x = inputs.tensor("x", "float", ("N", 3))
    with pytest.raises(BuildError) as caught:
        v22.Transpose(x, **attributes)  # type: ignore[arg-type]
    message = str(caught.value)
    assert f"{__file__}:{caught.tb.tb_lineno}: ai.onnx@21::Transpose:" in message
    assert "[attr_type] attribute 'perm' should be ints" in message and shown in message


def test_a_build_problem_without_a_place_has_no_stray_colon() -> None:
    x = inputs.tensor("x", "float", ("N", 3))
    twin = inputs.tensor("x", "float", ("N", 3))
    with pytest.raises(BuildError) as caught:
        build(inputs=[x, twin], outputs={"y": v22.Add(x, twin)})
    assert "[duplicate_name] graph input 'x' is declared twice" in str(caught.value)


def test_split_18_takes_n_outputs_alone_as_documented() -> None:
    x = inputs.tensor("x", "float", ("N", 6))
    parts = v18.Split(x, axis=1, n_outputs=3)
    assert [p.shape for p in parts] == [("N", 2)] * 3
    model = build(inputs=[x], outputs={f"y{i}": p for i, p in enumerate(parts)})
    split = model.graph.node[0]
    assert [(a.name, a.i) for a in split.attribute] == [("axis", 1), ("num_outputs", 3)]
    data = np.arange(12, dtype=np.float32).reshape(2, 6)
    got = run_onnxruntime(model, {"x": data})
    for i, part in enumerate(np.split(data, 3, axis=1)):
        np.testing.assert_array_equal(got[i], part)
    eager = v18.Split(data, axis=1, n_outputs=3)
    np.testing.assert_array_equal(eager[2], data[:, 4:])


def test_split_18_with_split_lengths_writes_no_num_outputs() -> None:
    x = inputs.tensor("x", "float", (6,))
    parts = v18.Split(x, np.array([1, 5], np.int64), n_outputs=2)
    model = build(inputs=[x], outputs={"a": parts[0], "b": parts[1]})
    assert [a.name for a in model.graph.node[0].attribute] == []


def test_one_array_used_many_times_is_one_initializer() -> None:
    w = np.random.default_rng(0).standard_normal((64, 64)).astype(np.float32)
    x = inputs.tensor("x", "float", ("N", 64))
    h = x
    for _ in range(300):
        h = v22.Relu(v22.Add(v22.MatMul(h, w), np.zeros(64, np.float32)))  # a fresh (equal) bias each layer
    model = build(inputs=[x], outputs={"y": h})
    assert len(model.graph.initializer) == 2  # the shared weight, and the equal biases by content
    assert sum(i.ByteSize() for i in model.graph.initializer) < 64 * 64 * 4 + 1024
    onnx.checker.check_model(model)
    data = np.full((1, 64), 0.01, np.float32)
    want = data
    for _ in range(3):
        want = np.maximum(want @ w, 0)
    small = x
    for _ in range(3):
        small = v22.Relu(v22.MatMul(small, w))
    np.testing.assert_allclose(run_onnxruntime(build(inputs=[x], outputs={"y": small}), {"x": data})[0], want,
                               rtol=1e-4, atol=1e-5)


def test_named_constants_keep_their_names_even_when_equal() -> None:
    x = inputs.tensor("x", "float", (2,))
    a = constant(np.ones(2, np.float32), name="a")
    b = constant(np.ones(2, np.float32), name="b")
    model = build(inputs=[x], outputs={"y": v22.Add(v22.Add(x, a), b)})
    assert sorted(i.name for i in model.graph.initializer) == ["a", "b"]


def test_other_wrong_attribute_types_are_build_errors_and_numpy_numbers_are_numbers() -> None:
    x = inputs.tensor("x", "float", ("N", 3))
    for call, words in [(lambda: v22.LeakyRelu(x, alpha=[1.0]), "attribute 'alpha' should be float (float), got list"),
                        (lambda: v22.Softmax(x, axis=True), "attribute 'axis' should be int (int), got bool True"),
                        (lambda: v22.Softmax(x, axis=1.5), "attribute 'axis' should be int (int), got float 1.5")]:
        with pytest.raises(BuildError, match=re.escape(words)):
            call()
    model = build(inputs=[x], outputs={"a": v22.LeakyRelu(x, alpha=1), "b": v22.Softmax(x, axis=np.int64(0)),
                                       "c": v22.Transpose(x, perm=(np.int64(1), 0))})
    written = {a.name: onnx.helper.get_attribute_value(a) for n in model.graph.node for a in n.attribute}
    assert written == {"alpha": 1.0, "axis": 0, "perm": [1, 0]}
    assert model.graph.node[0].attribute[0].type == onnx.AttributeProto.FLOAT
