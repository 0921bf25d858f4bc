"""conform's checks of outputs drawn at random (`conformance.runner.random_outputs`): each law's check passes a right
draw and reports a wrong one (a value outside the support, a wrong certain value, a mask that disagrees with the
output); `when` keeps deterministic calls out of it; the node suite checks random outputs by the law, not by value."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
import pytest
from onnx import helper

from conformance.runner.random_outputs import random_call, random_output_problems
from conformance.strategies.attributes import node_values
from conformance.suites.onnx_node import _drawn, compare
from opset.infer import resolve_attributes
from tests.helpers import run, version


def problems(op: str, since: int, inputs: list[np.ndarray | None], given: dict[str, Any],
             outputs: dict[str, np.ndarray]) -> list[str]:
    v = version("ai.onnx", op, since)
    shapes = [list(x.shape) if x is not None else None for x in inputs]
    call = random_call(v, inputs, node_values(resolve_attributes(v, given, shapes)))
    assert call is not None, f"{v.signature}: not random here"
    return random_output_problems(call, outputs)


P = np.array([0.0, 0.5, 1.0, 0.25], np.float32)
LOGITS = np.array([[0.0, -np.inf, 1.0], [-np.inf, 2.0, -np.inf]], np.float32)
X = np.array([[1.0, -2.0, 0.0], [4.0, 0.5, -1.5]], np.float32)
TRAIN = [X, np.array(0.5, np.float32), np.array(True)]


@pytest.mark.parametrize(("op", "since", "inputs", "given", "outputs", "found"), [
    ("RandomUniform", 22, [], {"shape": [3], "low": 1.0, "high": 2.0},
     {"output": np.array([1.0, 1.5, 2.5], np.float32)}, "outside [low, high]"),
    ("RandomUniform", 1, [], {"shape": [2], "dtype": 10, "low": 0.1, "high": 0.2},
     {"output": np.array([0.2, 0.1], np.float16)}, None),  # the bounds as float16 holds them (0.1 -> 0.09998)
    ("RandomNormal", 22, [], {"shape": [2]}, {"output": np.array([0.3, np.nan], np.float32)}, "NaN"),
    ("RandomNormal", 22, [], {"shape": [2], "mean": 2.0, "scale": 0.0},
     {"output": np.array([2.0, 2.5], np.float32)}, "other than the mean"),
    ("RandomNormalLike", 1, [X], {}, {"output": np.full(X.shape, -7.0, np.float32)}, None),
    ("Bernoulli", 15, [P], {}, {"output": np.array([0, 1, 1, 2], np.float32)}, "neither 0 nor 1"),
    ("Bernoulli", 15, [P], {}, {"output": np.array([1, 1, 1, 0], np.float32)}, "where p is 0 or 1"),
    ("Bernoulli", 22, [P], {"dtype": 9}, {"output": np.array([False, False, True, True])}, None),
    ("Multinomial", 7, [LOGITS], {"sample_size": 2}, {"output": np.array([[0, 2], [1, 3]], np.int32)},
     "outside [0, 3)"),
    ("Multinomial", 7, [LOGITS], {"sample_size": 2}, {"output": np.array([[0, 1], [1, 1]], np.int32)},
     "probability 0"),
    ("Multinomial", 22, [LOGITS], {"sample_size": 2}, {"output": np.array([[2, 0], [1, 1]], np.int32)}, None),
    ("Dropout", 13, TRAIN, {}, {"output": X * 2 * [[1, 0, 1], [0, 1, 1]],
                                "mask": np.array([[True, False, True], [False, True, True]])}, None),
    ("Dropout", 13, TRAIN, {}, {"output": X * 2 * [[1, 0, 1], [0, 1, 1]],
                                "mask": np.array([[True, True, True], [False, True, True]])}, "disagrees"),
    ("Dropout", 13, TRAIN, {}, {"output": X * [[1, 0, 1], [0, 1, 1]],
                                "mask": np.array([[True, False, True], [False, True, True]])}, "disagrees"),
    ("Dropout", 13, TRAIN, {}, {"output": X * [[1, 0, 1], [0, 1, 1]]}, "neither 0 nor data / (1 - ratio)"),
    ("Dropout", 13, TRAIN, {}, {"output": X * 2 * [[0, 0, 1], [0, 1, 1]]}, None),
    ("Dropout", 1, [X], {"ratio": 0.5}, {"output": X * 2, "mask": np.full(X.shape, 2.0, np.float32)},
     "neither 0 nor 1"),
])
def test_a_law_check_reports_exactly_the_wrong_draws(op: str, since: int, inputs: list[np.ndarray | None],
                                                     given: dict[str, Any], outputs: dict[str, np.ndarray],
                                                     found: str | None) -> None:
    got = problems(op, since, inputs, given, outputs)
    if found is None:
        assert got == [], got
    else:
        assert len(got) == 1 and found in got[0], got


@pytest.mark.parametrize(("since", "inputs", "given"), [
    (13, [X], {}),  # no training_mode: inference
    (13, [X, np.array(0.5, np.float32), np.array(False)], {}),
    (13, [X, np.array(0.0, np.float32), np.array(True)], {}),  # ratio 0 keeps everything
    (1, [X], {"is_test": 1}),
    (1, [X], {"ratio": 0.0}),
    (7, [X], {"ratio": 0.5}),  # no training switch before 12: inference
])
def test_dropout_is_not_random_where_nothing_is_dropped(since: int, inputs: list[np.ndarray | None],
                                                        given: dict[str, Any]) -> None:
    v = version("ai.onnx", "Dropout", since)
    shapes = [list(x.shape) if x is not None else None for x in inputs]
    assert random_call(v, inputs, node_values(resolve_attributes(v, given, shapes))) is None


def node_suite_dropout(training: bool) -> tuple[str, onnx.ModelProto, dict[str, np.ndarray], list[np.ndarray]]:
    """A case as onnx's node suite writes test_training_dropout_mask (and test_dropout_default_mask without
    training): a one-node opset-22 model, its feeds, and expected outputs drawn by numpy's legacy generator."""
    x = np.random.default_rng(3).standard_normal((3, 4, 5)).astype(np.float32)
    node = helper.make_node("Dropout", ["x", "r", "t"], ["y", "z"], seed=0)
    inputs = [helper.make_tensor_value_info(n, t, s) for n, t, s in (("x", onnx.TensorProto.FLOAT, x.shape),
                                                                      ("r", onnx.TensorProto.FLOAT, []),
                                                                      ("t", onnx.TensorProto.BOOL, []))]
    outputs = [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, x.shape),
               helper.make_tensor_value_info("z", onnx.TensorProto.BOOL, x.shape)]
    model = helper.make_model(helper.make_graph([node], "g", inputs, outputs),
                              opset_imports=[helper.make_opsetid("", 22)])
    feeds = {"x": x, "r": np.array(0.75, np.float32), "t": np.array(training)}
    keep = np.random.RandomState(0).uniform(0, 1, x.shape) >= 0.75 if training else np.ones(x.shape, bool)
    name = "test_training_dropout_mask" if training else "test_dropout_default_mask"
    return name, model, feeds, [(x * keep * (4.0 if training else 1.0)).astype(np.float32),
                                                        keep]


def test_the_node_suite_checks_a_training_dropout_by_its_law() -> None:
    """onnx's expected mask comes from numpy's legacy generator: our draw differs, yet passes by the law; an output
    that disagrees with its mask fails."""
    name, model, feeds, want = node_suite_dropout(training=True)
    drawn = _drawn(name, model, feeds)
    assert drawn is not None and drawn.params == ("output", "mask")
    ours = list(run("ai.onnx", "Dropout", 22, [feeds["x"], feeds["r"], feeds["t"]], seed=0))
    assert not np.array_equal(ours[1], want[1]), "the draws agree by chance: pick another case"
    assert compare(ours, want, 1e-3, 1e-7) != []  # value by value, they differ ...
    assert compare(ours, want, 1e-3, 1e-7, drawn) == []  # ... by the law, they pass
    inverted = [ours[0], ~ours[1]]
    assert any("disagrees with mask" in p for p in compare(inverted, want, 1e-3, 1e-7, drawn))


def test_the_node_suite_compares_an_inference_dropout_by_value() -> None:
    name, model, feeds, want = node_suite_dropout(training=False)
    assert _drawn(name, model, feeds) is None
    ours = list(run("ai.onnx", "Dropout", 22, [feeds["x"], feeds["r"], feeds["t"]]))
    assert compare(ours, want, 1e-3, 1e-7) == []
    assert compare([ours[0] * 2, ours[1]], want, 1e-3, 1e-7) != []
