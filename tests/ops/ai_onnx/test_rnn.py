"""RNN: the kernel against onnxruntime (directions, sequence_lens, clip, every activation with alpha/beta) and
onnx.reference, the shape formulas against onnx, rejected nodes, the activation defaults the registry reads."""

from __future__ import annotations

from typing import Any

import numpy as np

from opset.formula import Sym
from tests.helpers import (
    OracleCase,
    all_since,
    assert_examples_match_kernel_and_formula,
    kernel_outputs,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
    symbolic_shape,
)
from tests.helpers.recurrent import ort_in_float, ort_in_layout_0, recurrent_inputs

OP = "RNN"
ORT = all_since(OP, 7)  # onnxruntime has no RNN-1
DIRECTIONS = {"forward": 1, "reverse": 1, "bidirectional": 2}
# one function per direction, each reached by the alpha/beta lists where it takes them
ACTIVATIONS: list[dict[str, Any]] = [
    dict(activations=["Relu"]),
    dict(activations=["Sigmoid"]),
    dict(activations=["Softsign"]),
    dict(activations=["Softplus"]),
    dict(activations=["LeakyRelu"]),
    dict(activations=["LeakyRelu"], activation_alpha=[0.5]),
    dict(activations=["Elu"]),
    dict(activations=["Elu"], activation_alpha=[0.5]),
    dict(activations=["HardSigmoid"]),
    dict(activations=["HardSigmoid"], activation_alpha=[0.4], activation_beta=[0.25]),
    dict(activations=["Affine"], activation_alpha=[0.5], activation_beta=[-0.25]),
    dict(activations=["ScaledTanh"], activation_alpha=[1.5], activation_beta=[0.5]),
    dict(activations=["ThresholdedRelu"], activation_alpha=[0.125]),
    dict(activations=["Relu", "Tanh"]),  # a one-direction RNN with two names uses the first (the default's length)
]
BIDIRECTIONAL: list[dict[str, Any]] = [
    dict(activations=["Relu", "Tanh"]),
    dict(activations=["HardSigmoid", "Affine"], activation_alpha=[0.4, 0.5], activation_beta=[0.25, -0.25]),
    dict(activations=["Elu", "ScaledTanh"], activation_alpha=[0.5, 1.5], activation_beta=[0.5]),
]


def _cases() -> list[OracleCase]:
    cases = []
    for k, (direction, nd) in enumerate(DIRECTIONS.items()):
        d = {"direction": direction, "hidden_size": 3}
        full = recurrent_inputs(OP, k, directions=nd)
        short = recurrent_inputs(OP, 10 + k, directions=nd, seq=4, batch=3, lengths=[4, 2, 1])
        empty = recurrent_inputs(OP, 20 + k, directions=nd, lengths=[0, 3])
        wide = recurrent_inputs(OP, 30 + k, directions=nd, scale=2.0)
        bare = recurrent_inputs(OP, 40 + k, directions=nd, bias=False, initial=False)
        named = [(full, d, 2, "full"), (bare, d, 2, "bare"), (short, d, 2, "lengths"),
                 (empty, d, 2, "empty_sequence"), (wide, {**d, "clip": 0.5}, 1, "clip")]
        functions = BIDIRECTIONAL if nd == 2 else ACTIVATIONS
        named += [(short, {**d, "clip": 1.5, **acts}, 2, "-".join(acts["activations"]) + f"_{i}")
                  for i, acts in enumerate(functions)]
        for inputs, attrs, n_out, name in named:
            cases.append(OracleCase(OP, attrs, inputs, ORT, n_out=n_out, oracle="ort", id=f"{direction}_{name}"))
            cases.append(OracleCase(OP, attrs, inputs, (1,), n_out=n_out, oracle="ort@7", id=f"{direction}_{name}"))
        batchwise = recurrent_inputs(OP, 50 + k, directions=nd, layout=1, seq=4, batch=3, lengths=[2, 4, 3])
        attrs = {**d, "layout": 1, "clip": 1.0, **functions[1]}
        cases += [OracleCase(OP, attrs, batchwise, (since,), n_out=2,
                             oracle=ort_in_layout_0(OP, since, batchwise, attrs, 2), id=f"{direction}_layout1")
                  for since in all_since(OP, 14)]
        plain = recurrent_inputs(OP, 60 + k, directions=nd, layout=1)
        cases.append(OracleCase(OP, {"direction": direction, "layout": 1}, plain, all_since(OP, 14), n_out=2,
                                id=f"{direction}_layout1_ref"))
    cases.append(OracleCase(OP, {}, recurrent_inputs(OP, 70), ORT, n_out=2, id="no_hidden_size"))
    half = recurrent_inputs(OP, 80, lengths=[3, 2], dtype=np.float16)
    cases.append(OracleCase(OP, {"hidden_size": 3, "clip": 1.0}, half, ORT, n_out=2, oracle="ort", rtol=3e-3,
                            id="float16"))
    double = recurrent_inputs(OP, 90, directions=2, lengths=[1, 3], dtype=np.float64)
    attrs = {"hidden_size": 3, "direction": "bidirectional", **BIDIRECTIONAL[1]}
    cases += [OracleCase(OP, attrs, double, (since,), n_out=2, oracle=ort_in_float(OP, since, double, attrs, 2),
                         id="double") for since in ORT]
    return cases


CASES = _cases()


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def _shape_inputs(nd: int, layout: int = 0) -> list[list[int] | None]:
    state = [nd, 2, 3] if layout == 0 else [2, nd, 3]
    x = [4, 2, 5] if layout == 0 else [2, 4, 5]
    return [x, [nd, 3, 5], [nd, 3, 3], [nd, 6], None, state]


SHAPES = [shape_case(OP, opset, _shape_inputs(nd), {"hidden_size": 3, "direction": direction}, n_out=n)
          for opset in (7, 14, 22) for direction, nd in DIRECTIONS.items() for n in (1, 2)]
SHAPES += [shape_case(OP, opset, _shape_inputs(nd, 1), {"hidden_size": 3, "direction": direction, "layout": 1},
                      n_out=2) for opset in (14, 22) for direction, nd in DIRECTIONS.items()]
SHAPES += [
    shape_case(OP, 14, _shape_inputs(1)[:3], {}, n_out=2),  # hidden_size from R: onnx leaves the dim unknown
    shape_case(OP, 1, _shape_inputs(2), {"hidden_size": 3, "direction": "bidirectional", "output_sequence": 1},
               n_out=2),
    # output_sequence = 0: onnx's shape inference (1 to 6) infers no output; the registry still sizes them
    shape_case(OP, 1, _shape_inputs(1), {"hidden_size": 3}, n_out=2,
               not_inferred_by_onnx={0: [4, 1, 2, 3], 1: [1, 2, 3]}),
]

REJECTED = [
    (shape_case(OP, 14, [[4, 2, 5], [2, 3, 5], [2, 3, 3]], {}), "rnn_c1"),
    (shape_case(OP, 14, [[4, 2, 5], [1, 3, 5], [1, 3, 3]], {"hidden_size": 4}), "rnn_c2"),
    (shape_case(OP, 14, [[4, 2, 5], [1, 3, 4], [1, 3, 3]], {}), "binding"),
    (shape_case(OP, 14, [[4, 2, 5], [1, 3, 5], [1, 3, 3], [1, 3]], {}), "rnn_c3"),
    (shape_case(OP, 14, [[4, 2, 5], [1, 3, 5], [1, 3, 3], None, np.array([1, 1], np.int32)], {"layout": 1}),
     "rnn_c4"),
    (shape_case(OP, 14, [[4, 2, 5], [1, 3, 5], [1, 3, 3], None, None, [2, 1, 3]], {}), "rnn_c5"),
    (shape_case(OP, 14, [[4, 2, 5], [2, 3, 5], [2, 3, 3]], {"direction": "bidirectional",
                                                            "activations": ["Tanh"]}), "rnn_c6"),
    (shape_case(OP, 14, [[4, 2, 5], [1, 3, 5], [1, 3, 3]], {"activations": ["Tanh"] * 3}), "rnn_c6"),
    (shape_case(OP, 14, [[4, 2, 5], [1, 3, 5], [1, 3, 3], None, np.array([2, 5], np.int32)], {}), "rnn_c7"),
    (shape_case(OP, 14, [[4, 2, 5], [1, 3, 5], [1, 3, 3]], {"activations": ["ScaledTanh"]}), "rnn_c8"),
    (shape_case(OP, 14, [[4, 2, 5], [1, 3, 5], [1, 3, 3]], {"activations": ["tanh"]}), "attr_allowed"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_symbolic_sequence_and_batch() -> None:
    assert symbolic_shape(OP, 7, [[Sym("S"), Sym("N"), 5], [2, 3, 5], [2, 3, 3]], {"direction": "bidirectional"}) \
        == ["S", "2", "N", "3"]


def _run(attrs: dict[str, Any], inputs: list[np.ndarray | None]) -> tuple[np.ndarray, ...]:
    return kernel_outputs(OracleCase(OP, {"hidden_size": 3, **attrs}, inputs, (14,), n_out=2), 14)


def test_unreached_functions_take_the_onnx_operators_defaults() -> None:
    """Where activation_alpha/beta do not reach a function, it takes the default of the onnx operator of its
    name: Affine 1 and 0 (identity), ThresholdedRelu 1, LeakyRelu 0.01, Elu 1, HardSigmoid 0.2 and 0.5.
    onnxruntime differs for Affine and ThresholdedRelu (rnn_r1, rnn_r2), so the defaults are spelled out."""
    inputs = recurrent_inputs(OP, 3, scale=2.0, lengths=[3, 2])
    for name, alpha, beta in (("Affine", 1.0, 0.0), ("ThresholdedRelu", 1.0, None), ("LeakyRelu", 0.01, None),
                              ("Elu", 1.0, None), ("HardSigmoid", 0.2, 0.5)):
        spelled: dict[str, Any] = {"activations": [name], "activation_alpha": [alpha]}
        if beta is not None:
            spelled["activation_beta"] = [beta]
        for a, b in zip(_run({"activations": [name]}, inputs), _run(spelled, inputs), strict=True):
            np.testing.assert_array_equal(a, b, err_msg=name)


def test_alpha_and_beta_are_consumed_across_directions() -> None:
    """The lists run on from the forward functions into the backward ones: with Relu forward (no alpha), the
    backward Affine takes the first alpha, as if the forward direction had not been there."""
    inputs = recurrent_inputs(OP, 4, directions=2, lengths=[3, 1])
    both = _run({"direction": "bidirectional", "activations": ["Relu", "Affine"], "activation_alpha": [0.5],
                 "activation_beta": [0.25]}, inputs)
    x, w, r, b, lengths, h0 = inputs
    assert w is not None and r is not None and b is not None and h0 is not None
    backward_only = [x, w[1:], r[1:], b[1:], lengths, h0[1:]]
    alone = _run({"direction": "reverse", "activations": ["Affine"], "activation_alpha": [0.5],
                  "activation_beta": [0.25]}, backward_only)
    np.testing.assert_allclose(both[0][:, 1:], alone[0], rtol=1e-6)
    np.testing.assert_allclose(both[1][1:], alone[1], rtol=1e-6)


def test_examples_match_kernel_and_formula() -> None:
    assert_examples_match_kernel_and_formula("ai.onnx", OP)
