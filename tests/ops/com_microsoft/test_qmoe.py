"""com.microsoft QMoE: the kernel against onnxruntime's CPU kernel (2-, 4- and 8-bit experts, column-wise and
block-wise scales, with and without zero points, interleaved SwiGLU, router_weights, float16), the shape formula
against onnxruntime, rejected nodes under their constraint ids, and the bit unpacking checked by hand."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from conformance.kernels.com_microsoft.qmoe import unpack_bits
from tests.helpers import (
    OracleCase,
    Seeded,
    assert_matches_oracle,
    assert_registry_ranges_exercised,
    oracle_params,
    problem_checks,
    run,
    version,
)
from tests.helpers.ort_outputs import assert_output_shapes_match_onnxruntime

DOMAIN = "com.microsoft"
OP = "QMoE"
f32 = Seeded(23).f32
rng = np.random.default_rng(23)
E, H, NI = 4, 32, 32  # experts, hidden size, inter size (multiples of the block size 16)


def _packed(rows: tuple[int, ...], count: int, bits: int) -> np.ndarray:
    return rng.integers(0, 256, size=(*rows, -(-count * bits // 8)), dtype=np.uint8)


def _scales(*shape: int) -> np.ndarray:
    return (rng.random(shape) * 0.1 + 0.01).astype(np.float32)


def _inputs(tokens: int, bits: int, *, width: int = NI, block: int = 0, zero_points: bool = False,
            bias: bool = True) -> list[np.ndarray | None]:
    """x, router_probs, fc1 (weights, scales, bias), fc2 (...), fc3 (...), zero points fc1..fc3, router_weights."""
    w1, w2 = _packed((E, width), H, bits), _packed((E, H), NI, bits)
    if block:
        s1, s2 = _scales(E, width, H // block), _scales(E, H, NI // block)
        z1 = _packed((E, width), H // block, bits) if zero_points else None
        z2 = _packed((E, H), NI // block, bits) if zero_points else None
    else:
        s1, s2 = _scales(E, width), _scales(E, H)
        z1 = _packed((E,), width, bits) if zero_points else None
        z2 = _packed((E,), H, bits) if zero_points else None
    return [f32(tokens, H), f32(tokens, E), w1, s1, f32(E, width) if bias else None, w2, s2,
            f32(E, H) if bias else None, None, None, None, z1, z2, None, None]


def _case(ident: str, attrs: dict[str, Any], inputs: list[np.ndarray | None], rtol: float = 1e-4) -> OracleCase:
    return OracleCase(OP, {"activation_type": "relu", **attrs}, inputs, (1,), oracle="ort", rtol=rtol, id=ident,
                      domain=DOMAIN)


SWIGLU = {"activation_type": "swiglu", "swiglu_fusion": 1, "activation_alpha": 1.702, "activation_beta": 1.0}
CASES = [
    _case(f"int{bits}-{'block16' if block else 'column'}{'-zp' if zp else ''}",
          {"expert_weight_bits": bits, "k": 2, **({"block_size": block} if block else {})},
          _inputs(5, bits, block=block, zero_points=zp))
    for bits in (2, 4, 8) for block in (0, 16) for zp in (False, True)
] + [
    _case("int4-top1-nobias", {"k": 1}, _inputs(4, 4, bias=False)),
    _case("int8-top3-silu-norm", {"expert_weight_bits": 8, "k": 3, "activation_type": "silu",
                                  "normalize_routing_weights": 1}, _inputs(3, 8)),
    _case("int8-swiglu", {**SWIGLU, "expert_weight_bits": 8, "k": 2, "swiglu_limit": 7.0},
          _inputs(6, 8, width=2 * NI)),
    _case("int4-block-swiglu", {**SWIGLU, "k": 2, "block_size": 16}, _inputs(3, 4, width=2 * NI, block=16)),
    _case("int8-gelu-3d", {"expert_weight_bits": 8, "k": 2, "activation_type": "gelu"},
          [f32(2, 3, H), *_inputs(6, 8)[1:]]),
]


def _with_router_weights(normalize: int) -> OracleCase:
    ins = _inputs(5, 8)
    ins[-1] = (rng.random((5, E)) + 0.1).astype(np.float32)
    return _case(f"router-weights-norm{normalize}",
                 {"expert_weight_bits": 8, "k": 2, "normalize_routing_weights": normalize}, ins)


CASES += [_with_router_weights(0), _with_router_weights(1)]


def _half(case: OracleCase) -> OracleCase:
    ins = [a.astype(np.float16) if a is not None and a.dtype == np.float32 else a for a in case.inputs]
    return OracleCase(OP, case.attrs, ins, case.since, oracle="ort", rtol=3e-2, id=case.id + "-fp16", domain=DOMAIN)


CASES += [_half(CASES[7]), _half(CASES[3])]


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_onnxruntime(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


def test_bits_unpack_low_bits_first() -> None:
    packed = np.array([[0b11100100, 0b00011011]], np.uint8)
    np.testing.assert_array_equal(unpack_bits(packed, 2, 8), [[0, 1, 2, 3, 3, 2, 1, 0]])
    np.testing.assert_array_equal(unpack_bits(packed, 4, 4), [[4, 14, 11, 1]])
    np.testing.assert_array_equal(unpack_bits(packed, 8, 2), [[228, 27]])
    # 3-bit values run across byte boundaries: 0b100 = 4, then 0b100, then 0b11 | 0b1 << 2 = 7
    np.testing.assert_array_equal(unpack_bits(np.array([[0b11100100, 0b1]], np.uint8), 3, 3), [[4, 4, 7]])


def test_one_token_one_expert_by_hand() -> None:
    """k = 1 with 8-bit column-wise weights: the token's output is expert e's dequantized FFN (weight 1)."""
    ins = _inputs(1, 8, bias=False)
    ins[1] = np.array([[0.0, 0.0, 4.0, 0.0]], np.float32)
    x, w1, s1, w2, s2 = (ins[i] for i in (0, 2, 3, 5, 6))
    assert x is not None and w1 is not None and s1 is not None and w2 is not None and s2 is not None
    e = 2
    d1 = (w1[e].astype(np.float64) - 128) * s1[e][:, None]
    d2 = (w2[e].astype(np.float64) - 128) * s2[e][:, None]
    want = np.maximum(x.astype(np.float64) @ d1.T, 0) @ d2.T
    got = run(DOMAIN, OP, 1, ins, activation_type="relu", expert_weight_bits=8, k=1)[0]
    np.testing.assert_allclose(got, want, rtol=1e-5)


def test_floating_point_formats_are_refused() -> None:
    with pytest.raises(ValueError, match="fp8"):
        run(DOMAIN, OP, 1, _inputs(2, 8), activation_type="relu", expert_weight_bits=8, quant_type="fp8")


@pytest.mark.parametrize(("inputs", "attrs"), [
    pytest.param(_inputs(5, 4), {"k": 2}, id="2d-int4"),
    pytest.param([f32(2, 3, H), *_inputs(6, 8, width=2 * NI, block=16)[1:]],
                 {**SWIGLU, "expert_weight_bits": 8, "block_size": 16}, id="3d-swiglu-block"),
])
def test_shape_formula_matches_onnxruntime(inputs: list[np.ndarray | None], attrs: dict[str, Any]) -> None:
    assert_output_shapes_match_onnxruntime(DOMAIN, OP, 1, inputs, {"activation_type": "relu", **attrs})


@pytest.mark.parametrize(("shapes", "attrs", "check"), [
    pytest.param([[2, 3, 4, H], [24, E], [E, NI, H // 2], [E, NI], None, [E, H, NI // 2], [E, H]], {}, "qmoe_c1",
                 id="rank"),
    pytest.param([[3, H], [4, E], [E, NI, H // 2], [E, NI], None, [E, H, NI // 2], [E, H]], {}, "qmoe_c2",
                 id="router_rows"),
    pytest.param([[3, H], [3, E], [E, NI, H // 2], [E, NI], None, [E, H, NI // 2], [E, H]], {"k": 5}, "qmoe_c3",
                 id="k"),
    pytest.param([[3, H], [3, E], [E, NI, H // 2], [E, NI], None, [E, 8, NI // 2], [E, 8]], {}, "qmoe_c4",
                 id="hidden"),
    pytest.param([[3, H], [3, E], [E, NI, H], [E, NI], None, [E, H, NI // 2], [E, H]], {}, "qmoe_c5",
                 id="fc1_bytes"),
    pytest.param([[3, H], [3, E], [E, NI, H // 2], [E, NI], None, [E, H, NI]], {}, "qmoe_c6", id="fc2_bytes"),
    pytest.param([[3, H], [3, E], [E, NI, H // 2], [E, NI, 1], None, [E, H, NI // 2], [E, H, 1]],
                 {"block_size": 24}, "qmoe_c7", id="block_pow2"),
    pytest.param([[3, 48], [3, E], [E, NI, 24], [E, NI, 1], None, [E, 48, NI // 2], [E, 48, 1]],
                 {"block_size": 32}, "qmoe_c8", id="block_divides"),
    pytest.param([[3, H], [3, E], [E, 33, H // 2], [E, 33], None, [E, H, NI // 2], [E, H]],
                 {"activation_type": "swiglu", "swiglu_fusion": 1}, "qmoe_c9", id="fused_width"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int] | None], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, attrs)


def test_three_bit_profile_is_checked() -> None:
    shapes = [[3, H], [3, E], [E, 2 * NI, H * 3 // 8], [E, 2 * NI, 1], None, [E, H, NI * 3 // 8], [E, H, 1]]
    plain = {"activation_type": "relu", "expert_weight_bits": 3, "block_size": 32}
    assert "qmoe_c10" in problem_checks(version(DOMAIN, OP, 1), shapes, plain)
    profile = {"activation_type": "swiglu", "swiglu_fusion": 1, "weights_prepacked": 0, "expert_weight_bits": 3,
               "block_size": 32}
    assert "qmoe_c10" not in problem_checks(version(DOMAIN, OP, 1), shapes, profile)
