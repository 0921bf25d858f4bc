"""LSTM: the kernel against onnxruntime (directions, sequence_lens, clip, input_forget, peepholes, activations with
alpha/beta) and onnx.reference, the shape formulas against onnx, rejected nodes, outputs named in any subset."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
from onnx import helper

from conformance.backends.reference import ReferenceBackend
from opset.formula import Sym
from tests.helpers import (
    OracleCase,
    all_since,
    assert_examples_match_kernel_and_formula,
    kernel_outputs,
    oracle_tests,
    rejection_tests,
    run_onnxruntime,
    shape_case,
    shape_tests,
    symbolic_shape,
)
from tests.helpers.recurrent import ort_in_float, ort_in_layout_0, ort_outputs, recurrent_inputs

OP = "LSTM"
ORT = all_since(OP, 7)  # onnxruntime has no LSTM-1
DIRECTIONS = {"forward": 1, "reverse": 1, "bidirectional": 2}
# activation lists (per direction) whose alpha/beta lists reach every function that takes one
ACTIVATIONS: dict[str, dict[str, Any]] = {
    "forward": dict(activations=["HardSigmoid", "LeakyRelu", "Softsign"], activation_alpha=[0.3, 0.2],
                    activation_beta=[0.6]),
    "reverse": dict(activations=["Sigmoid", "ScaledTanh", "Elu"], activation_alpha=[1.5, 0.5],
                    activation_beta=[0.75]),
    "bidirectional": dict(activations=["Sigmoid", "Relu", "Softplus", "HardSigmoid", "Affine", "Tanh"],
                          activation_alpha=[0.25, 0.5], activation_beta=[0.5, -0.25]),
}


def _cases() -> list[OracleCase]:
    cases = []
    for k, (direction, nd) in enumerate(DIRECTIONS.items()):
        d = {"direction": direction}
        full = recurrent_inputs(OP, k, directions=nd, hidden=3)
        short = recurrent_inputs(OP, 10 + k, directions=nd, seq=4, batch=3, lengths=[4, 2, 1])
        empty = recurrent_inputs(OP, 20 + k, directions=nd, lengths=[0, 3])
        wide = recurrent_inputs(OP, 30 + k, directions=nd, scale=2.0)
        bare = recurrent_inputs(OP, 40 + k, directions=nd, bias=False, initial=False, peephole=False)
        for inputs, attrs, n_out, name in [
            (full, d, 3, "full"),
            (bare, d, 3, "bare"),
            (short, d, 3, "lengths"),
            (empty, d, 3, "empty_sequence"),
            (wide, {**d, "clip": 0.5}, 3, "clip"),
            (wide, {**d, "input_forget": 1}, 2, "input_forget"),
            (wide, {**d, **ACTIVATIONS[direction]}, 3, "activations"),
            (short, {**d, "clip": 0.25, "input_forget": 1, **ACTIVATIONS[direction]}, 3, "everything"),
        ]:
            cases.append(OracleCase(OP, {**attrs, "hidden_size": 3}, inputs, ORT, n_out=n_out, oracle="ort",
                                    id=f"{direction}_{name}"))
            cases.append(OracleCase(OP, {**attrs, "hidden_size": 3}, inputs, (1,), n_out=n_out, oracle="ort@7",
                                    id=f"{direction}_{name}"))
        batchwise = recurrent_inputs(OP, 50 + k, directions=nd, layout=1, seq=4, batch=3, lengths=[2, 4, 3])
        attrs = {**d, "hidden_size": 3, "layout": 1, "clip": 1.0, **ACTIVATIONS[direction]}
        cases += [OracleCase(OP, attrs, batchwise, (since,), n_out=3, oracle=ort_in_layout_0(OP, since, batchwise,
                                                                                             attrs, 3),
                             id=f"{direction}_layout1") for since in all_since(OP, 14)]
        plain = recurrent_inputs(OP, 60 + k, directions=nd, layout=1)
        cases.append(OracleCase(OP, {**d, "layout": 1}, plain, all_since(OP, 14), n_out=3,
                                id=f"{direction}_layout1_ref"))
    # hidden_size left out: R's last dim (onnxruntime requires the attribute; onnx.reference does not)
    cases.append(OracleCase(OP, {}, recurrent_inputs(OP, 70), all_since(OP), n_out=3, id="no_hidden_size"))
    half = recurrent_inputs(OP, 80, lengths=[3, 2], dtype=np.float16)
    cases.append(OracleCase(OP, {"hidden_size": 3, "clip": 1.0}, half, ORT, n_out=3, oracle="ort", rtol=3e-3,
                            id="float16"))
    double = recurrent_inputs(OP, 90, directions=2, lengths=[1, 3], dtype=np.float64)
    attrs = {"hidden_size": 3, "direction": "bidirectional", "input_forget": 1}
    cases += [OracleCase(OP, attrs, double, (since,), n_out=3, oracle=ort_in_float(OP, since, double, attrs, 3),
                         id="double") for since in ORT]
    return cases


CASES = _cases()


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def _shape_inputs(nd: int, layout: int = 0) -> list[list[int] | None]:
    state = [nd, 2, 3] if layout == 0 else [2, nd, 3]
    x = [4, 2, 5] if layout == 0 else [2, 4, 5]
    return [x, [nd, 12, 5], [nd, 12, 3], [nd, 24], None, state, list(state), [nd, 9]]


SHAPES = [shape_case(OP, opset, _shape_inputs(nd), {"hidden_size": 3, "direction": direction}, n_out=n)
          for opset in (7, 14, 22) for direction, nd in DIRECTIONS.items() for n in (1, 3)]
SHAPES += [shape_case(OP, opset, _shape_inputs(nd, 1), {"hidden_size": 3, "direction": direction, "layout": 1},
                      n_out=3) for opset in (14, 22) for direction, nd in DIRECTIONS.items()]
SHAPES += [
    shape_case(OP, 14, _shape_inputs(1)[:3], {}, n_out=3),  # hidden_size from R: onnx leaves the dim unknown
    shape_case(OP, 1, _shape_inputs(2), {"hidden_size": 3, "direction": "bidirectional", "output_sequence": 1},
               n_out=3),
    # output_sequence = 0: onnx's shape inference (1 to 6) infers no output; the registry still sizes them
    shape_case(OP, 1, _shape_inputs(1), {"hidden_size": 3}, n_out=3,
               not_inferred_by_onnx={0: [4, 1, 2, 3], 1: [1, 2, 3], 2: [1, 2, 3]}),
]

LENGTHS = np.array([4, 5], np.int32)
REJECTED = [
    (shape_case(OP, 14, [[4, 2, 5], [1, 12, 5], [1, 12, 3]], {"direction": "bidirectional"}), "lstm_c1"),
    (shape_case(OP, 14, [[4, 2, 5], [1, 9, 5], [1, 9, 3]], {}), "lstm_c2"),
    (shape_case(OP, 14, [[4, 2, 5], [1, 12, 5], [1, 12, 3]], {"hidden_size": 4}), "lstm_c2"),
    (shape_case(OP, 14, [[4, 2, 5], [1, 12, 5], [1, 12, 3], [1, 12]], {}), "lstm_c3"),
    (shape_case(OP, 14, [[4, 2, 5], [1, 12, 5], [1, 12, 3], None, np.array([4], np.int32)], {}), "lstm_c4"),
    (shape_case(OP, 14, [[4, 2, 5], [1, 12, 5], [1, 12, 3], None, None, [2, 1, 3]], {}), "lstm_c5"),
    (shape_case(OP, 14, [[2, 4, 5], [1, 12, 5], [1, 12, 3], None, None, [1, 2, 3]], {"layout": 1}), "lstm_c5"),
    (shape_case(OP, 14, [[4, 2, 5], [1, 12, 5], [1, 12, 3], None, None, None, [1, 2, 4]], {}), "lstm_c6"),
    (shape_case(OP, 14, [[4, 2, 5], [1, 12, 5], [1, 12, 3], None, None, None, None, [1, 12]], {}), "lstm_c7"),
    (shape_case(OP, 14, [[4, 2, 5], [1, 12, 5], [1, 12, 3], None, LENGTHS], {}), "lstm_c8"),
    (shape_case(OP, 14, [[4, 2, 5], [1, 12, 5], [1, 12, 3]], {"activations": ["Sigmoid", "ScaledTanh", "Tanh"],
                                                              "activation_alpha": [1.0]}), "lstm_c9"),
    (shape_case(OP, 14, [[4, 2, 5], [1, 12, 5], [1, 12, 3]], {"activations": ["Sigmoid", "Tanh"]}), "attr_length"),
    (shape_case(OP, 14, [[4, 2, 5], [1, 12, 5], [1, 12, 3]], {"activations": ["Sigmoid", "Tanh", "Gelu"]}),
     "attr_allowed"),
    (shape_case(OP, 14, [[4, 2, 5], [1, 12, 5], [1, 12, 3]], {"direction": "backward"}), "attr_allowed"),
    (shape_case(OP, 14, [[4, 2, 5], [1, 12, 5], [1, 12, 3]], {"clip": -1.0}), "attr_range"),
    (shape_case(OP, 14, [[4, 2, 5, 1], [1, 12, 5], [1, 12, 3]], {}), "rank"),
    (shape_case(OP, 14, [[4, 2, 5], [1, 12, 4], [1, 12, 3]], {}), "binding"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_symbolic_sequence_and_batch() -> None:
    shapes = [[Sym("S"), Sym("N"), 5], [2, 12, 5], [2, 12, 3]]
    assert symbolic_shape(OP, 14, shapes, {"direction": "bidirectional"}) == ["S", "2", "N", "3"]
    assert symbolic_shape(OP, 14, [[Sym("N"), Sym("S"), 5], [1, 12, 5], [1, 12, 3]], {"layout": 1}) == \
        ["N", "S", "1", "3"]


def test_any_subset_of_the_outputs_can_be_named() -> None:
    """Y, Y_h and Y_c by name in any subset (empty names elsewhere): the reference backend fills them as
    onnxruntime does."""
    inputs = recurrent_inputs(OP, 99, directions=2, lengths=[3, 1])
    names = ["X", "W", "R", "B", "sequence_lens", "initial_h", "initial_c", "P"]
    attrs = {"hidden_size": 3, "direction": "bidirectional"}
    feeds = {n: x for n, x in zip(names, inputs, strict=True) if x is not None}
    every = ort_outputs(OP, 14, inputs, attrs, 3)
    for wanted in (["Y"], ["", "Y_h"], ["", "", "Y_c"], ["Y", "", "Y_c"], ["", "Y_h", "Y_c"]):
        node = helper.make_node(OP, names, wanted, **attrs)
        got = ReferenceBackend().run(node, list(inputs), {"": 14})
        outs = [helper.make_tensor_value_info(n, onnx.TensorProto.FLOAT, None) for n in wanted if n]
        graph = helper.make_graph([node], "g", [helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(
            x.dtype), x.shape) for n, x in feeds.items()], outs)
        theirs = run_onnxruntime(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)]), feeds)
        named = [i for i, n in enumerate(wanted) if n]
        for i, want in zip(named, theirs, strict=True):
            np.testing.assert_allclose(got[i], want, rtol=1e-5, atol=1e-6, err_msg=f"{wanted}: output {i}")
            np.testing.assert_allclose(every[i], want, rtol=1e-5, atol=1e-6)


def test_input_forget_ignores_the_forget_gate() -> None:
    """input_forget = 1: ft = 1 - it, so the forget gate's rows of W, R, B and its peephole change nothing."""
    inputs = recurrent_inputs(OP, 7, lengths=[3, 2])
    changed = [None if x is None else x.copy() for x in inputs]
    for index, rows in ((1, slice(6, 9)), (2, slice(6, 9)), (3, slice(6, 9)), (3, slice(18, 21)), (7, slice(6, 9))):
        block = changed[index]
        assert block is not None
        block[:, rows] += 1.0
    attrs = {"hidden_size": 3, "input_forget": 1}
    same = kernel_outputs(OracleCase(OP, attrs, inputs, (14,), n_out=3), 14)
    moved = kernel_outputs(OracleCase(OP, attrs, changed, (14,), n_out=3), 14)
    for a, b in zip(same, moved, strict=True):
        np.testing.assert_array_equal(a, b)
    plain = kernel_outputs(OracleCase(OP, {"hidden_size": 3}, changed, (14,), n_out=3), 14)
    assert not np.allclose(plain[1], same[1])


def test_examples_match_kernel_and_formula() -> None:
    assert_examples_match_kernel_and_formula("ai.onnx", OP)
