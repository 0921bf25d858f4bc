"""com.microsoft MatMulNBits: the kernel and the shape formula against onnxruntime (2, 4 and 8 bits, packed and
float zero points, g_idx, bias, an empty B), accuracy_level 4 against onnxruntime with a constant B (the reading),
rejected nodes and inputs."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
import pytest
from onnx import helper, numpy_helper

from opset.infer import infer_shapes
from tests.helpers import (
    OracleCase,
    assert_matches_oracle,
    assert_registry_ranges_exercised,
    assert_shapes_match_onnxruntime,
    problem_checks,
    run,
    run_onnxruntime,
    version,
)

DOMAIN = "com.microsoft"
OP = "MatMulNBits"
RNG = np.random.default_rng(21)


def pack(values: np.ndarray, bits: int) -> np.ndarray:
    """Values of `bits` bits packed low bits first along the last axis (which must fill whole bytes)."""
    per = 8 // bits
    grouped = values.reshape(*values.shape[:-1], -1, per).astype(np.uint16)
    out = np.zeros(grouped.shape[:-1], np.uint16)
    for j in range(per):
        out |= grouped[..., j] << (bits * j)
    return out.astype(np.uint8)


def weights(k: int, n: int, bits: int, block: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A packed B, its scales and its zero points (unpacked [N, k_blocks] integers)."""
    kb = -(-k // block)
    q = RNG.integers(0, 1 << bits, (n, kb, block))
    scales = (RNG.random((n, kb)) + 0.1).astype(np.float32)
    return pack(q, bits), scales, RNG.integers(0, 1 << bits, (n, kb))


def packed_zero_points(zp: np.ndarray, bits: int) -> np.ndarray:
    per = 8 // bits
    pad = (-zp.shape[1]) % per
    return pack(np.concatenate([zp, np.zeros((zp.shape[0], pad), zp.dtype)], axis=1), bits)


def case(inputs: list[Any], attrs: dict[str, Any], id: str, rtol: float = 2e-5) -> OracleCase:
    return OracleCase(OP, attrs, inputs, (1,), oracle="ort", rtol=rtol, id=id, domain=DOMAIN)


def cases() -> list[OracleCase]:
    out = []
    for bits in (2, 4, 8):
        k, n, block = 40, 5, 16
        b, s, zp = weights(k, n, bits, block)
        a = RNG.standard_normal((2, 3, k)).astype(np.float32)
        attrs = {"K": k, "N": n, "bits": bits, "block_size": block}
        bias = RNG.standard_normal(n).astype(np.float32)
        out += [
            case([a, b, s], attrs, f"{bits}bit_default_zero_point"),
            case([a, b, s.reshape(-1), packed_zero_points(zp, bits), None, bias], attrs, f"{bits}bit_packed_zp_bias"),
        ]
        if bits != 8:
            out.append(case([a, b, s, zp.astype(np.float32)], attrs, f"{bits}bit_float_zp"))
    k, n, block = 70, 3, 32
    b, s, zp = weights(k, n, 4, block)
    attrs = {"K": k, "N": n, "bits": 4, "block_size": block}
    a = RNG.standard_normal((4, k)).astype(np.float32)
    g_idx = RNG.integers(0, 3, k).astype(np.int32)
    out += [
        case([a, b, s, zp.astype(np.float32), g_idx], attrs, "g_idx_float_zp"),
        case([a[0], b, s], attrs, "one_d_a"),
        case([a.astype(np.float16), b, s.astype(np.float16), zp.astype(np.float16)], attrs, "fp16", rtol=2e-3),
        case([a, b, s], {**attrs, "accuracy_level": 4}, "accuracy_level_4_runtime_b"),
        case([a, np.zeros((3, 0, 16), np.uint8), np.zeros((3, 0), np.float32), None, None,
              np.array([1, 2, 3], np.float32)], attrs, "empty_b_bias"),
    ]
    return out


CASES = cases()


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_kernel_matches_onnxruntime(case: OracleCase) -> None:
    assert_matches_oracle(case, 1)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


def constant_b_model(k: int, n: int, block: int, b: np.ndarray, s: np.ndarray, level: int) -> onnx.ModelProto:
    node = helper.make_node(OP, ["a", "b", "s"], ["y"], domain=DOMAIN, K=k, N=n, bits=4, block_size=block,
                            accuracy_level=level)
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("a", onnx.TensorProto.FLOAT, [4, k])],
                              [onnx.ValueInfoProto(name="y")],
                              initializer=[numpy_helper.from_array(b, "b"), numpy_helper.from_array(s, "s")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18), helper.make_opsetid(DOMAIN, 1)])
    model.ir_version = 8
    return model


def test_accuracy_level_4_is_the_reading_onnxruntime_follows_with_a_constant_b() -> None:
    """matmulnbits_r1: with B an initializer, onnxruntime quantizes A to int8 at level 4 and moves Y by more than
    float tolerance; at level 0 it agrees with the kernel, which computes the same at every level."""
    k, n, block = 128, 16, 32
    b, s, _ = weights(k, n, 4, block)
    a = RNG.standard_normal((4, k)).astype(np.float32)
    attrs = {"K": k, "N": n, "bits": 4, "block_size": block}
    (mine,) = run(DOMAIN, OP, 1, [a, b, s, None, None, None], **attrs, accuracy_level=4)
    (exact,) = run_onnxruntime(constant_b_model(k, n, block, b, s, 0), {"a": a})
    (coarse,) = run_onnxruntime(constant_b_model(k, n, block, b, s, 4), {"a": a})
    np.testing.assert_allclose(mine, exact, rtol=2e-5, atol=2e-5)
    assert np.abs(coarse - mine).max() > 1e-3 * np.abs(mine).max()
    reading = version(DOMAIN, OP, 1).readings[0]
    assert reading.id == "matmulnbits_r1" and "accuracy_level == 4" in reading.when.text


@pytest.mark.parametrize(("inputs", "attrs", "message"), [
    pytest.param([np.zeros((2, 16), np.float32), np.zeros((1, 1, 4), np.uint8), np.ones(1, np.float32)],
                 {"K": 16, "N": 1, "bits": 4, "block_size": 16}, "B must have shape", id="b_shape"),
    pytest.param([np.zeros((2, 15), np.float32), np.zeros((1, 1, 8), np.uint8), np.ones(1, np.float32)],
                 {"K": 16, "N": 1, "bits": 4, "block_size": 16}, "last dim", id="a_last_dim"),
    pytest.param([np.zeros((2, 16), np.float32), np.zeros((1, 1, 8), np.uint8), np.ones(2, np.float32)],
                 {"K": 16, "N": 1, "bits": 4, "block_size": 16}, "scales", id="scales_count"),
    pytest.param([np.zeros((2, 16), np.float32), np.zeros((1, 1, 8), np.uint8), np.ones(1, np.float32)],
                 {"K": 16, "N": 1, "bits": 4, "block_size": 16, "weight_prepacked": 1}, "CUDA", id="prepacked"),
])
def test_kernel_rejects_invalid_input(inputs: list[Any], attrs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run(DOMAIN, OP, 1, [*inputs, None, None, None], **{"accuracy_level": 0, "weight_prepacked": 0, **attrs})


@pytest.mark.parametrize("case", CASES[:4], ids=[c.id for c in CASES[:4]])
def test_shape_formula_matches_onnxruntime(case: OracleCase) -> None:
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, case.inputs, case.attrs)


BASE = {"K": 40, "N": 5, "bits": 4, "block_size": 16}


@pytest.mark.parametrize(("shapes", "attrs", "check"), [
    pytest.param([[2, 39], [5, 3, 8], [5, 3]], BASE, "matmulnbits_c1", id="a_last_dim"),
    pytest.param([[2, 40], [5, 3, 16], [5, 3]], BASE, "matmulnbits_c2", id="b_blob"),
    pytest.param([[2, 40], [5, 3, 8], [5, 2]], BASE, "matmulnbits_c3", id="scales"),
    pytest.param([[2, 40], [5, 3, 8], [5, 3], None, [39]], BASE, "matmulnbits_c6", id="g_idx"),
    pytest.param([[2, 40], [5, 3, 8], [5, 3], None, None, [4]], BASE, "matmulnbits_c7", id="bias"),
    pytest.param([[2, 40], [5, 3, 16], [5, 3], None, [40]], {**BASE, "bits": 8}, "matmulnbits_c9", id="g_idx_8bit"),
])
def test_invalid_node_reports_the_check(shapes: list[Any], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, attrs)


def typed_checks(shapes: list[Any], attrs: dict[str, Any], types: list[str]) -> list[str]:
    result = infer_shapes(version(DOMAIN, OP, 1), shapes, attrs, input_types=types)
    return [p.check for p in result.problems]


def test_zero_point_types_are_checked() -> None:
    """The zero points' type decides their layout: [N, k_blocks] fits unpacked ones in A's type (_c4 quiet),
    not packed uint8 ones (_c4); unpacked ones must have A's type (_c5); 8 bits take packed ones (_c8)."""
    shapes = [[2, 40], [5, 3, 8], [5, 3], [5, 3]]
    f32, f16, u8 = "tensor(float)", "tensor(float16)", "tensor(uint8)"
    assert typed_checks(shapes, BASE, [f32, u8, f32, f32]) == []
    assert "matmulnbits_c4" in typed_checks(shapes, BASE, [f32, u8, f32, u8])
    assert "matmulnbits_c5" in typed_checks(shapes, BASE, [f32, u8, f32, f16])
    eight = [[2, 40], [5, 3, 16], [5, 3], [5, 3]]
    assert "matmulnbits_c8" in typed_checks(eight, {**BASE, "bits": 8}, [f32, u8, f32, f32])
