"""GRU: the kernel against onnxruntime (directions, sequence_lens, clip, linear_before_reset, activations with
alpha/beta) and onnx.reference, the shape formulas against onnx, rejected nodes, GRU-1's `foward` default."""

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

OP = "GRU"
ORT = all_since(OP, 7)  # onnxruntime has no GRU-1 or GRU-3
DIRECTIONS = {"forward": 1, "reverse": 1, "bidirectional": 2}
ACTIVATIONS: dict[str, dict[str, Any]] = {
    "forward": dict(activations=["HardSigmoid", "Softsign"], activation_alpha=[0.3], activation_beta=[0.6]),
    "reverse": dict(activations=["Sigmoid", "ScaledTanh"], activation_alpha=[1.5], activation_beta=[0.75]),
    "bidirectional": dict(activations=["Sigmoid", "Elu", "HardSigmoid", "Affine"],
                          activation_alpha=[0.5, 0.25, 1.5], activation_beta=[0.5, -0.25]),
}


def _cases() -> list[OracleCase]:
    cases = []
    for k, (direction, nd) in enumerate(DIRECTIONS.items()):
        d = {"direction": direction}
        full = recurrent_inputs(OP, k, directions=nd)
        short = recurrent_inputs(OP, 10 + k, directions=nd, seq=4, batch=3, lengths=[4, 2, 1])
        empty = recurrent_inputs(OP, 20 + k, directions=nd, lengths=[0, 3])
        wide = recurrent_inputs(OP, 30 + k, directions=nd, scale=2.0)
        bare = recurrent_inputs(OP, 40 + k, directions=nd, bias=False, initial=False)
        for inputs, attrs, n_out, name, since in [
            (full, d, 2, "full", ORT),
            (bare, d, 2, "bare", ORT),
            (short, d, 2, "lengths", ORT),
            (empty, d, 2, "empty_sequence", ORT),
            (wide, {**d, "clip": 0.5}, 2, "clip", ORT),
            (wide, {**d, "linear_before_reset": 1}, 1, "linear_before_reset", ORT),
            (wide, {**d, **ACTIVATIONS[direction]}, 2, "activations", ORT),
            (short, {**d, "clip": 0.25, "linear_before_reset": 1, **ACTIVATIONS[direction]}, 2, "everything", ORT),
        ]:
            cases.append(OracleCase(OP, {**attrs, "hidden_size": 3}, inputs, since, n_out=n_out, oracle="ort",
                                    id=f"{direction}_{name}"))
            old = (1, 3) if "linear_before_reset" not in attrs else (3,)  # GRU-1 has no linear_before_reset
            cases += [OracleCase(OP, {**attrs, "hidden_size": 3}, inputs, (v,), n_out=2, oracle="ort@7",
                                 id=f"{direction}_{name}") for v in old]
        batchwise = recurrent_inputs(OP, 50 + k, directions=nd, layout=1, seq=4, batch=3, lengths=[2, 4, 3])
        attrs = {**d, "hidden_size": 3, "layout": 1, "clip": 1.0, "linear_before_reset": 1, **ACTIVATIONS[direction]}
        cases += [OracleCase(OP, attrs, batchwise, (since,), n_out=2,
                             oracle=ort_in_layout_0(OP, since, batchwise, attrs, 2), id=f"{direction}_layout1")
                  for since in all_since(OP, 14)]
        plain = recurrent_inputs(OP, 60 + k, directions=nd, layout=1)
        cases.append(OracleCase(OP, {**d, "layout": 1}, plain, all_since(OP, 14), n_out=2,
                                id=f"{direction}_layout1_ref"))
    cases.append(OracleCase(OP, {}, recurrent_inputs(OP, 70), all_since(OP, 3), n_out=2, id="no_hidden_size"))
    half = recurrent_inputs(OP, 80, lengths=[3, 2], dtype=np.float16)
    cases.append(OracleCase(OP, {"hidden_size": 3, "clip": 1.0}, half, ORT, n_out=2, oracle="ort", rtol=3e-3,
                            id="float16"))
    double = recurrent_inputs(OP, 90, directions=2, lengths=[1, 3], dtype=np.float64)
    attrs = {"hidden_size": 3, "direction": "bidirectional", "linear_before_reset": 1}
    cases += [OracleCase(OP, attrs, double, (since,), n_out=2, oracle=ort_in_float(OP, since, double, attrs, 2),
                         id="double") for since in ORT]
    return cases


CASES = _cases()


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def _shape_inputs(nd: int, layout: int = 0) -> list[list[int] | None]:
    state = [nd, 2, 3] if layout == 0 else [2, nd, 3]
    x = [4, 2, 5] if layout == 0 else [2, 4, 5]
    return [x, [nd, 9, 5], [nd, 9, 3], [nd, 18], None, state]


SHAPES = [shape_case(OP, opset, _shape_inputs(nd), {"hidden_size": 3, "direction": direction}, n_out=n)
          for opset in (7, 14, 22) for direction, nd in DIRECTIONS.items() for n in (1, 2)]
SHAPES += [shape_case(OP, opset, _shape_inputs(nd, 1), {"hidden_size": 3, "direction": direction, "layout": 1},
                      n_out=2) for opset in (14, 22) for direction, nd in DIRECTIONS.items()]
SHAPES += [
    shape_case(OP, 14, _shape_inputs(1)[:3], {}, n_out=2),  # hidden_size from R: onnx leaves the dim unknown
    shape_case(OP, 3, _shape_inputs(2), {"hidden_size": 3, "direction": "bidirectional", "output_sequence": 1},
               n_out=2),
    # output_sequence = 0: onnx's shape inference (3 to 6) infers no output; the registry still sizes them
    shape_case(OP, 3, _shape_inputs(1), {"hidden_size": 3}, n_out=2,
               not_inferred_by_onnx={0: [4, 1, 2, 3], 1: [1, 2, 3]}),
    # GRU-1 has no shape inference in onnx at all
    shape_case(OP, 1, _shape_inputs(1), {"hidden_size": 3, "direction": "forward", "output_sequence": 1}, n_out=2,
               not_inferred_by_onnx={0: [4, 1, 2, 3], 1: [1, 2, 3]}),
]

REJECTED = [
    (shape_case(OP, 14, [[4, 2, 5], [1, 9, 5], [1, 9, 3]], {"direction": "bidirectional"}), "gru_c1"),
    (shape_case(OP, 14, [[4, 2, 5], [1, 12, 5], [1, 12, 3]], {}), "gru_c2"),
    (shape_case(OP, 14, [[4, 2, 5], [1, 9, 5], [1, 9, 3]], {"hidden_size": 2}), "gru_c2"),
    (shape_case(OP, 14, [[4, 2, 5], [1, 9, 5], [1, 9, 3], [1, 9]], {}), "gru_c3"),
    (shape_case(OP, 14, [[4, 2, 5], [1, 9, 5], [1, 9, 3], None, np.array([4, 4, 4], np.int32)], {}), "gru_c4"),
    (shape_case(OP, 14, [[4, 2, 5], [1, 9, 5], [1, 9, 3], None, None, [1, 3, 3]], {}), "gru_c5"),
    (shape_case(OP, 14, [[4, 2, 5], [1, 9, 5], [1, 9, 3], None, np.array([-1, 2], np.int32)], {}), "gru_c6"),
    (shape_case(OP, 14, [[4, 2, 5], [1, 9, 5], [1, 9, 3]], {"activations": ["ScaledTanh", "Tanh"],
                                                            "activation_beta": [1.0]}), "gru_c7"),
    (shape_case(OP, 14, [[4, 2, 5], [2, 9, 5], [2, 9, 3]], {"direction": "bidirectional",
                                                            "activations": ["Sigmoid", "Tanh"]}), "attr_length"),
    (shape_case(OP, 14, [[4, 2, 5], [1, 9, 5], [1, 9, 3]], {"linear_before_reset": 2}), "attr_allowed"),
    (shape_case(OP, 14, [[4, 2, 5], [1, 9, 5], [1, 9, 3]], {"layout": 2}), "attr_allowed"),
    (shape_case(OP, 14, [[4, 2, 5], [1, 9, 5], [1, 9, 3]], {"hidden_size": 0}), "attr_range"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_symbolic_sequence_and_batch() -> None:
    assert symbolic_shape(OP, 22, [[Sym("S"), Sym("N"), 5], [1, 9, 5], [1, 9, 3]]) == ["S", "1", "N", "3"]


def test_gru1_default_direction_foward_means_forward() -> None:
    """GRU-1's default direction is onnx's misspelling `foward`: the kernel reads it as forward."""
    inputs = recurrent_inputs(OP, 5, lengths=[3, 1])
    by_default = kernel_outputs(OracleCase(OP, {"hidden_size": 3}, inputs, (1,), n_out=2), 1)
    spelled = kernel_outputs(OracleCase(OP, {"hidden_size": 3, "direction": "foward"}, inputs, (1,), n_out=2), 1)
    forward = kernel_outputs(OracleCase(OP, {"hidden_size": 3, "direction": "forward"}, inputs, (1,), n_out=2), 1)
    backward = kernel_outputs(OracleCase(OP, {"hidden_size": 3, "direction": "reverse"}, inputs, (1,), n_out=2), 1)
    for a, b, c in zip(by_default, spelled, forward, strict=True):
        np.testing.assert_array_equal(a, c)
        np.testing.assert_array_equal(b, c)
    assert not np.allclose(forward[1], backward[1])


def test_examples_match_kernel_and_formula() -> None:
    assert_examples_match_kernel_and_formula("ai.onnx", OP)
