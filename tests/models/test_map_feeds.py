"""Python numbers inside a map feed are the declared element type when they are of its kind (onnxruntime takes a dict
of Python floats for a map(string, tensor(float)) input, as skl2onnx's DictVectorizer models are fed); numpy values
keep their own type and are refused when it is another, and so is a Python number of another kind."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from conformance.models import FeedError, run_model


def _dict_vectorizer(value_type: int) -> onnx.ModelProto:
    x = helper.make_value_info("X", helper.make_map_type_proto(TensorProto.STRING, helper.make_tensor_type_proto(
        value_type, None)))
    node = helper.make_node("DictVectorizer", ["X"], ["Y"], domain="ai.onnx.ml", string_vocabulary=["a", "b", "c"])
    graph = helper.make_graph([node], "g", [x], [helper.make_tensor_value_info("Y", value_type, [1, 3])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("ai.onnx.ml", 3)])


def test_a_dict_of_python_floats_feeds_a_float_map() -> None:
    y = run_model(_dict_vectorizer(TensorProto.FLOAT), {"X": {"c": 2.5, "a": 1}})["Y"]
    assert y.dtype == np.float32 and y.tolist() == [[1.0, 0.0, 2.5]]


def test_a_dict_of_python_ints_feeds_an_int64_map() -> None:
    y = run_model(_dict_vectorizer(TensorProto.INT64), {"X": {"b": 7}})["Y"]
    assert y.dtype == np.int64 and y.tolist() == [[0, 7, 0]]


@pytest.mark.parametrize(("value_type", "feed", "words"), [
    (TensorProto.FLOAT, {"a": np.float64(1.5)}, "map(string,tensor(double))"),
    (TensorProto.INT64, {"a": 2.5}, "map(string,tensor(double))"),
    (TensorProto.FLOAT, {"a": True}, "map(string,tensor(bool))"),
])
def test_a_map_of_another_type_is_refused(value_type: int, feed: dict[str, object], words: str) -> None:
    with pytest.raises(FeedError, match=r"input 'X' is declared map\(string,tensor\((float|int64)\)\), but its value "
                                        r"is " + words.replace("(", r"\(").replace(")", r"\)")):
        run_model(_dict_vectorizer(value_type), {"X": feed})
