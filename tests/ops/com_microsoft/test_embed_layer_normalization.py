"""com.microsoft EmbedLayerNormalization: the kernel against onnxruntime's CPU kernel (segments or none, mask_index with
and without a mask, position_ids per batch or shared, embedding_sum), the shape formulas, rejected nodes and inputs."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    Seeded,
    assert_matches_oracle,
    assert_registry_ranges_exercised,
    formula_shapes,
    one_node_model,
    oracle_params,
    problem_checks,
    run,
    run_onnxruntime,
    version,
)

DOMAIN = "com.microsoft"
OP = "EmbedLayerNormalization"
data = Seeded(17)
B, S, H, V, P, G = 2, 4, 8, 10, 6, 2
IDS, SEG = data.ints(0, V, (B, S), np.int32), data.ints(0, G, (B, S), np.int32)
WE, PE, SE, GAMMA, BETA = data.f32(V, H), data.f32(P, H), data.f32(G, H), data.f32(H), data.f32(H)
MASK = np.array([[1, 1, 0, 1], [2, -1, 0, 0]], np.int32)  # counts of 1: 3 and 0
POS_B, POS_1 = data.ints(0, P, (B, S), np.int32), data.ints(0, P, (1, S), np.int32)


def case(inputs: list[Any], id: str, n_out: int = 3, attrs: dict[str, Any] | None = None) -> OracleCase:
    return OracleCase(OP, attrs or {}, inputs, (1,), n_out=n_out, oracle="ort", rtol=1e-5, id=id, domain=DOMAIN)


CASES = [
    case([IDS, SEG, WE, PE, SE, GAMMA, BETA], "segments"),
    case([IDS, None, WE, PE, None, GAMMA, BETA], "no_segments"),
    case([IDS, SEG, WE, PE, SE, GAMMA, BETA, MASK], "mask"),
    case([IDS, None, WE, PE, None, GAMMA, BETA, MASK, POS_B], "positions_per_batch"),
    case([IDS, SEG, WE, PE, SE, GAMMA, BETA, None, POS_1], "positions_shared"),
    case([IDS, SEG, WE, PE, SE, GAMMA, BETA, MASK], "epsilon", attrs={"epsilon": 0.25}),
    case([IDS, None, WE, PE, None, GAMMA, BETA], "no_mask_index", n_out=1, attrs={"mask_index_type": 0}),
]


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_onnxruntime(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


def test_mask_index_counts_the_ones() -> None:
    _, mask_index, total = run(DOMAIN, OP, 1, [IDS, None, WE, PE, None, GAMMA, BETA, MASK, None])
    np.testing.assert_array_equal(mask_index, np.array([3, 0], np.int32))
    np.testing.assert_allclose(total, WE[IDS] + PE[np.arange(S)], rtol=1e-6)


@pytest.mark.parametrize(("inputs", "message"), [
    pytest.param([IDS + V, None, WE, PE, None, GAMMA, BETA], "word_embedding", id="id_past_vocab"),
    pytest.param([IDS, SEG + G, WE, PE, SE, GAMMA, BETA], "segment_embedding", id="segment_past_table"),
    pytest.param([np.zeros((1, P + 1), np.int32), None, WE, PE, None, GAMMA, BETA], "position_embedding",
                 id="sequence_past_positions"),
    pytest.param([IDS, SEG, WE, PE, None, GAMMA, BETA], "together", id="segment_ids_alone"),
    pytest.param([IDS, None, WE, PE, None, GAMMA, BETA, MASK[:, :2]], "mask", id="mask_shape"),
    pytest.param([IDS, None, WE, PE, None, GAMMA[:4], BETA], "gamma", id="gamma_length"),
])
def test_kernel_rejects_invalid_input(inputs: list[Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run(DOMAIN, OP, 1, inputs + [None] * (9 - len(inputs)), epsilon=1e-12)


@pytest.mark.parametrize("inputs", [
    pytest.param([IDS, SEG, WE, PE, SE, GAMMA, BETA, MASK], id="segments_mask"),
    pytest.param([IDS, None, WE, PE, None, GAMMA, BETA, None, POS_1], id="positions"),
])
def test_shape_formulas_match_onnxruntime(inputs: list[Any]) -> None:
    model, feeds = one_node_model(OP, 1, inputs, {}, 3, domain=DOMAIN)
    theirs = [list(o.shape) for o in run_onnxruntime(model, feeds)]
    assert formula_shapes(version(DOMAIN, OP, 1), inputs, {}) == theirs


SH = [[B, S], [B, S], [V, H], [P, H], [G, H], [H], [H]]


@pytest.mark.parametrize(("shapes", "check"), [
    pytest.param([[B, S], [B, S], [V, H], [P, H], None, [H], [H]], "embedlayernormalization_c1",
                 id="segment_ids_alone"),
    pytest.param([[B, S], [B, 1], [V, H], [P, H], [G, H], [H], [H]], "embedlayernormalization_c2", id="segment_shape"),
    pytest.param([*SH, [B, 1]], "embedlayernormalization_c3", id="mask_shape"),
    pytest.param([*SH, None, [3, S]], "embedlayernormalization_c4", id="position_rows"),
    pytest.param([[B, P + 1], None, [V, H], [P, H], None, [H], [H]], "embedlayernormalization_c7",
                 id="sequence_past_positions"),
    pytest.param([[B, S], None, [V, H], [P, 4], None, [H], [H]], "binding", id="hidden_mismatch"),
])
def test_invalid_node_reports_the_check(shapes: list[Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, {})


@pytest.mark.parametrize(("name", "values", "check"), [
    pytest.param("input_ids", IDS + V, "embedlayernormalization_c5", id="id_past_vocab"),
    pytest.param("segment_ids", SEG + G, "embedlayernormalization_c6", id="segment_past_table"),
    pytest.param("position_ids", POS_B + P, "embedlayernormalization_c7", id="position_past_table"),
])
def test_ids_outside_their_table_are_reported(name: str, values: np.ndarray, check: str) -> None:
    shapes: list[Any] = [*SH, None, [B, S]]
    checks = problem_checks(version(DOMAIN, OP, 1), shapes, {}, values={name: values.ravel().tolist()})
    assert check in checks
