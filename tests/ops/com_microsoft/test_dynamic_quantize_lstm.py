"""com.microsoft DynamicQuantizeLSTM: the kernel against onnxruntime (int8 and uint8 weights, per-direction and
per-column parameters, directions, clip, input_forget, peepholes, activations, sequence_lens, several batch
entries), the shape formulas of all three outputs against onnxruntime's, rejected nodes and inputs."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from opset.infer import infer_shapes
from tests.helpers import (
    OracleCase,
    assert_matches_oracle,
    assert_registry_ranges_exercised,
    formula_shapes,
    kernel_outputs,
    one_node_model,
    problem_checks,
    run,
    run_onnxruntime,
    version,
)

DOMAIN = "com.microsoft"
OP = "DynamicQuantizeLSTM"
H = 3


def lstm_inputs(seed: int, *, nd: int = 1, steps: int = 3, batch: int = 1, size: int = 4, weights: Any = np.int8,
                per_column: bool = False, zero_point: int = 0, lengths: list[int] | None = None,
                optional: bool = True) -> list[np.ndarray | None]:
    """X, W, R, B, sequence_lens, initial_h, initial_c, P, W_scale, W_zero_point, R_scale, R_zero_point. Every
    batch entry of X holds -2 and 2, so X's range (and its quantization) is the same for any slice of entries."""
    rng = np.random.default_rng(seed)

    def floats(*shape: int, lo: float = -1.0, hi: float = 1.0) -> np.ndarray:
        return rng.uniform(lo, hi, shape).astype(np.float32)

    x = floats(steps, batch, size, lo=-2, hi=2)
    x[0, :, 0], x[0, :, -1] = -2.0, 2.0
    lo, hi = (-128, 128) if weights == np.int8 else (0, 256)
    shape = (nd, 4 * H) if per_column else (nd,)
    return [x, rng.integers(lo, hi, (nd, size, 4 * H)).astype(weights),
            rng.integers(lo, hi, (nd, H, 4 * H)).astype(weights),
            floats(nd, 8 * H) if optional else None,
            None if lengths is None else np.array(lengths, np.int32),
            floats(nd, batch, H) if optional else None, floats(nd, batch, H) if optional else None,
            floats(nd, 3 * H) if optional else None,
            floats(*shape, lo=0.002, hi=0.02), np.full(shape, zero_point, weights),
            floats(*shape, lo=0.002, hi=0.02), np.full(shape, zero_point, weights)]


def per_entry(inputs: list[np.ndarray | None], attrs: dict[str, Any]) -> Any:
    """An oracle for several batch entries under the registry's reading r1 (each entry's H_{t-1} quantized by its
    own range): onnxruntime on one entry at a time, the results put back together (X's range is the same in
    every entry, so X's quantization is unchanged by the slicing)."""

    def oracle() -> list[np.ndarray]:
        batch = inputs[0].shape[1]  # type: ignore[union-attr]
        outs = []
        for b in range(batch):
            one = [None if x is None else x[:, b:b + 1] if k in (0, 5, 6) else x[b:b + 1] if k == 4 else x
                   for k, x in enumerate(inputs)]
            model, feeds = one_node_model(OP, 1, one, attrs, 3, domain=DOMAIN)
            outs.append(run_onnxruntime(model, feeds))
        return [np.concatenate([o[k] for o in outs], axis=2 if k == 0 else 1) for k in range(3)]

    return oracle


BI = {"direction": "bidirectional"}
ACTIVATIONS = {"activations": ["HardSigmoid", "LeakyRelu", "Softsign"], "activation_alpha": [0.3, 0.2],
               "activation_beta": [0.6]}
BI_ACTIVATIONS = {"activations": ["Sigmoid", "Relu", "Softplus", "HardSigmoid", "Elu", "Tanh"],
                  "activation_alpha": [0.25, 0.5], "activation_beta": [0.5]}


def case(inputs: list[np.ndarray | None], attrs: dict[str, Any], id: str, n_out: int = 3) -> OracleCase:
    return OracleCase(OP, {"hidden_size": H, **attrs}, inputs, (1,), n_out=n_out, oracle="ort", rtol=1e-5, id=id,
                      domain=DOMAIN)


CASES = [
    case(lstm_inputs(1), {}, "int8"),
    case(lstm_inputs(2, weights=np.uint8, zero_point=128), {}, "uint8_zero_point"),
    case(lstm_inputs(3, per_column=True), {}, "per_column"),
    case(lstm_inputs(4, weights=np.uint8, zero_point=7, per_column=True), {}, "uint8_per_column"),
    case(lstm_inputs(5, optional=False), {}, "no_optional_inputs"),
    case(lstm_inputs(6), {"direction": "reverse"}, "reverse"),
    case(lstm_inputs(7, nd=2), BI, "bidirectional"),
    case(lstm_inputs(8, nd=2, per_column=True), {**BI, **BI_ACTIVATIONS}, "bidirectional_activations"),
    case(lstm_inputs(9), {"clip": 0.3}, "clip"),
    case(lstm_inputs(10), {"input_forget": 1}, "input_forget", n_out=2),
    case(lstm_inputs(11), ACTIVATIONS, "activations", n_out=1),
    case(lstm_inputs(12, steps=4, lengths=[2]), {}, "short_sequence"),
]
batched = lstm_inputs(13, nd=2, steps=4, batch=3, lengths=[4, 2, 0])
CASES.append(OracleCase(OP, {"hidden_size": H, **BI}, batched, (1,), n_out=3, oracle=per_entry(batched, {
    "hidden_size": H, **BI}), rtol=1e-5, id="batch_of_three_lengths", domain=DOMAIN))


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_kernel_matches_onnxruntime(case: OracleCase) -> None:
    assert_matches_oracle(case, 1)
    assert len(kernel_outputs(case, 1)) == case.n_out


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


def test_batch_entries_are_quantized_apart() -> None:
    """Reading r1: an entry's outputs do not depend on the other entries' hidden states (their ranges)."""
    inputs = lstm_inputs(14, batch=2)
    alone = run(DOMAIN, OP, 1, [None if x is None else x[:, :1] if k in (0, 5, 6) else x
                                for k, x in enumerate(inputs)], hidden_size=H)
    both = run(DOMAIN, OP, 1, inputs, hidden_size=H)
    np.testing.assert_array_equal(both[0][:, :, :1], alone[0])


@pytest.mark.parametrize(("k", "value", "message"), [
    pytest.param(1, np.zeros((1, 5, 4 * H), np.int8), "do not fit", id="w_input_size"),
    pytest.param(3, np.zeros((1, 4 * H), np.float32), "B has shape", id="b_length"),
    pytest.param(7, np.zeros((1, 2 * H), np.float32), "P has shape", id="p_length"),
    pytest.param(8, np.ones(2, np.float32), "W_scale", id="w_scale_length"),
])
def test_kernel_rejects_invalid_input(k: int, value: np.ndarray, message: str) -> None:
    inputs = lstm_inputs(15)
    inputs[k] = value
    with pytest.raises(ValueError, match=message):
        run(DOMAIN, OP, 1, inputs, hidden_size=H)


@pytest.mark.parametrize("case", [c for c in CASES if c.n_out == 3], ids=[c.id for c in CASES if c.n_out == 3])
def test_shape_formulas_match_onnxruntime(case: OracleCase) -> None:
    mine = formula_shapes(version(DOMAIN, OP, 1), case.inputs, case.attrs)
    model, feeds = one_node_model(OP, 1, case.inputs, case.attrs, 3, domain=DOMAIN)
    assert mine == [list(y.shape) for y in run_onnxruntime(model, feeds)]


def test_hidden_size_defaults_to_rs() -> None:
    inputs = lstm_inputs(16)
    assert formula_shapes(version(DOMAIN, OP, 1), inputs, {})[1] == [1, 1, H]


S1, S4 = [1], [1, 4 * H]
GOOD: list[Any] = [[3, 2, 4], [1, 4, 4 * H], [1, H, 4 * H], None, None, None, None, None, S1, S1, S1, S1]


def shapes(**change: Any) -> list[Any]:
    names = ["X", "W", "R", "B", "sequence_lens", "initial_h", "initial_c", "P", "W_scale", "W_zero_point",
             "R_scale", "R_zero_point"]
    return [change.get(n, s) for n, s in zip(names, GOOD, strict=True)]


@pytest.mark.parametrize(("inputs", "attrs", "values", "check"), [
    pytest.param(shapes(W=[2, 4, 4 * H]), {}, {}, "dynamicquantizelstm_c1", id="w_directions"),
    pytest.param(shapes(R=[1, H, 4 * H]), {"direction": "bidirectional"}, {}, "dynamicquantizelstm_c1",
                 id="forward_blocks_for_bidirectional"),
    pytest.param(shapes(W=[1, 5, 4 * H]), {}, {}, "dynamicquantizelstm_c2", id="w_input_size"),
    pytest.param(shapes(R=[1, H, 4 * H]), {"hidden_size": 4}, {}, "dynamicquantizelstm_c2", id="hidden_size"),
    pytest.param(shapes(B=[1, 4 * H]), {}, {}, "dynamicquantizelstm_c3", id="b_length"),
    pytest.param(shapes(sequence_lens=[3]), {}, {}, "dynamicquantizelstm_c4", id="lengths_count"),
    pytest.param(shapes(initial_c=[1, 3, H]), {}, {}, "dynamicquantizelstm_c5", id="initial_c_batch"),
    pytest.param(shapes(P=[1, 4 * H]), {}, {}, "dynamicquantizelstm_c6", id="p_length"),
    pytest.param(shapes(R_scale=[1, H]), {}, {}, "dynamicquantizelstm_c7", id="r_scale_length"),
    pytest.param(shapes(W_zero_point=S4), {}, {"W_zero_point": np.arange(4 * H, dtype=np.int8)},
                 "dynamicquantizelstm_c8", id="w_zero_points_differ"),
    pytest.param(shapes(sequence_lens=[2]), {}, {"sequence_lens": np.array([1, 4], np.int32)},
                 "dynamicquantizelstm_c9", id="length_past_seq"),
    pytest.param(shapes(), {"activations": ["Sigmoid", "ScaledTanh", "Tanh"], "activation_alpha": [1.0]}, {},
                 "dynamicquantizelstm_c10", id="scaled_tanh_without_beta"),
])
def test_invalid_node_reports_the_check(inputs: list[Any], attrs: dict[str, Any], values: dict[str, Any],
                                        check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), inputs, attrs, values)


@pytest.mark.parametrize(("r_type", "reported"), [("tensor(int8)", True), ("tensor(uint8)", False)])
def test_nonzero_r_zero_points_only_for_uint8(r_type: str, reported: bool) -> None:
    types = [None, None, r_type] + [None] * 9
    result = infer_shapes(version(DOMAIN, OP, 1), shapes(R_zero_point=S4), {},
                          {"R_zero_point": [1] * (4 * H)}, input_types=types)
    assert ("dynamicquantizelstm_c11" in [p.check for p in result.problems]) == reported
