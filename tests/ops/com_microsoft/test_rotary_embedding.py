"""com.microsoft RotaryEmbedding: the kernel against onnxruntime's CPU kernel (interleaved or not, partial rotation,
3-D and 4-D input, a base position and per-token positions, float16), the shape formula against onnxruntime, and
rejected nodes and inputs."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    Seeded,
    assert_matches_oracle,
    assert_registry_ranges_exercised,
    assert_shapes_match_onnxruntime,
    oracle_params,
    problem_checks,
    run,
    version,
)

DOMAIN = "com.microsoft"
OP = "RotaryEmbedding"
data = Seeded(11)
f32 = data.f32
B, S, N, H = 2, 3, 2, 8
X3, X4 = f32(B, S, N * H), f32(B, N, S, H)
COS, SIN = f32(10, H // 2), f32(10, H // 2)
COS2, SIN2 = COS[:, :2].copy(), SIN[:, :2].copy()  # caches for rotary_embedding_dim 4
POS = data.ints(0, 10, (B, S), np.int64)
BASE, BASE0 = np.array([4], np.int64), np.array(7, np.int64)


def case(inputs: list[Any], attrs: dict[str, Any], id: str, rtol: float = 1e-5) -> OracleCase:
    return OracleCase(OP, attrs, inputs, (1,), oracle="ort", rtol=rtol, id=id, domain=DOMAIN)


CASES = [
    *(case([x, pos, COS, SIN], {"interleaved": il}, f"{name}_{pname}_il{il}")
      for il in (0, 1) for name, x in (("3d", X3), ("4d", X4))
      for pname, pos in (("tokens", POS), ("base", BASE), ("base_scalar", BASE0))),
    *(case([x, POS, COS2, SIN2], {"interleaved": il, "rotary_embedding_dim": 4, "num_heads": N},
           f"partial_{name}_il{il}") for il in (0, 1) for name, x in (("3d", X3), ("4d", X4))),
    case([X3, POS, COS, SIN], {"num_heads": N}, "num_heads_given"),
    case([X3, POS, COS, SIN], {"scale": 2.0, "is_packed_batching": 1}, "scale_and_packing_change_nothing"),
    case([X3.astype(np.float16), POS, COS.astype(np.float16), SIN.astype(np.float16)], {"interleaved": 1}, "fp16",
         rtol=2e-3),
    case([X4.astype(np.float16), BASE, COS2.astype(np.float16), SIN2.astype(np.float16)],
         {"rotary_embedding_dim": 4, "num_heads": N}, "fp16_partial_base", rtol=2e-3),
]


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_onnxruntime(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


def test_partial_rotation_passes_the_rest_through() -> None:
    (y,) = run(DOMAIN, OP, 1, [X4, POS, COS2, SIN2], rotary_embedding_dim=4, num_heads=N)
    np.testing.assert_array_equal(y[..., 4:], X4[..., 4:])
    assert not np.allclose(y[..., :4], X4[..., :4])


@pytest.mark.parametrize(("inputs", "attrs", "message"), [
    pytest.param([X3, POS, COS2, SIN2], {"rotary_embedding_dim": 4}, "needs num_heads", id="partial_without_heads"),
    pytest.param([X3, POS, COS, SIN], {"rotary_embedding_dim": 4, "num_heads": N}, "2 wide", id="wide_caches"),
    pytest.param([X3, np.array([8], np.int64), COS, SIN], {}, r"\[0, 10\)", id="base_past_cache"),
    pytest.param([X3, POS[:1], COS, SIN], {}, "position_ids", id="position_rows"),
    pytest.param([X3[0], POS, COS, SIN], {}, "3-D or 4-D", id="rank2"),
])
def test_kernel_rejects_invalid_input(inputs: list[np.ndarray], attrs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run(DOMAIN, OP, 1, inputs, **attrs)


@pytest.mark.parametrize(("inputs", "attrs"), [
    pytest.param([X3, POS, COS, SIN], {}, id="3d"),
    pytest.param([X4, BASE, COS2, SIN2], {"rotary_embedding_dim": 4, "num_heads": N}, id="4d_partial"),
])
def test_shape_formula_matches_onnxruntime(inputs: list[np.ndarray], attrs: dict[str, Any]) -> None:
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, inputs, attrs)


@pytest.mark.parametrize(("inputs", "attrs", "check"), [
    pytest.param([[2, 3], [2, 3], [10, 4], [10, 4]], {}, "rotaryembedding_c1", id="rank2"),
    pytest.param([[2, 3, 16], [2, 3], [10, 2], [10, 2]], {"rotary_embedding_dim": 4}, "rotaryembedding_c2",
                 id="partial_without_heads"),
    pytest.param([[2, 3, 15], [2, 3], [10, 4], [10, 4]], {}, "rotaryembedding_c3", id="hidden_not_heads"),
    pytest.param([[2, 2, 3, 6], [2, 3], [10, 4], [10, 4]], {}, "rotaryembedding_c4", id="4d_head_mismatch"),
    pytest.param([[2, 3, 16], [2, 3], [10, 3], [10, 3]], {"rotary_embedding_dim": 6, "num_heads": 4},
                 "rotaryembedding_c5", id="rot_past_head"),
    pytest.param([[2, 3, 16], [2, 3], [10, 4], [10, 2]], {}, "rotaryembedding_c6", id="caches_differ"),
    pytest.param([[2, 3, 16], [1, 3], [10, 4], [10, 4]], {}, "rotaryembedding_c7", id="position_rows"),
])
def test_invalid_node_reports_the_check(inputs: list[Any], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), inputs, attrs)


@pytest.mark.parametrize(("positions", "bad"), [
    pytest.param([8], True, id="base_past_cache"),  # rows 8, 9, 10 of a 10-row cache
    pytest.param([7], False, id="base_fits"),
    pytest.param([[0, 1, 10], [0, 0, 0]], True, id="position_past_cache"),
    pytest.param([[-1, 1, 2], [0, 0, 0]], True, id="negative_position"),
])
def test_positions_outside_the_cache_are_reported(positions: list[Any], bad: bool) -> None:
    pos = np.array(positions, np.int64)
    checks = problem_checks(version(DOMAIN, OP, 1), [X3, pos, COS, SIN], {},
                            values={"position_ids": pos.ravel().tolist()})
    assert ("rotaryembedding_c8" in checks) == bad
