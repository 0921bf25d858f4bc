"""com.microsoft BitmaskBiasDropout: onnxruntime runs it on CUDA only. In inference the kernel is checked against
Add -> Add run by onnxruntime's CPU provider, its mask against the bit layout by hand (element i is bit i % 32 of word
i // 32, the last word's spare bits 0); in training the packed mask, unpacked, is BiasDropout's boolean mask of the
same seed and the output agrees with it by the dropout law (tests/ops/test_random_laws.py tests the law itself); the
shape formula of the packed mask; rejected nodes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from conformance.runner.random_outputs import random_call, random_output_problems, unpack_bits
from tests.helpers import OracleCase, Seeded, formula_shapes, oracle_tests, problem_checks, run, version
from tests.helpers.ort_graphs import node, run_ort_graph

DOMAIN = "com.microsoft"
OP = "BitmaskBiasDropout"
f32 = Seeded(38).f32
X, B, R = f32(3, 11), f32(11), f32(3, 11)  # 33 elements: two mask words, the second with one bit in use


def added(data: np.ndarray, bias: np.ndarray, residual: np.ndarray) -> Callable[[], list[Any]]:
    def run_it() -> list[Any]:
        nodes = [node("Add", ["data", "bias"], ["v"]), node("Add", ["v", "residual"], ["y"])]
        return run_ort_graph(nodes, {"data": data, "bias": bias, "residual": residual}, ["y"])

    return run_it


CASES = [
    OracleCase(OP, {}, [X, B, R], (1,), oracle=added(X, B, R), rtol=1e-6, id="inference", domain=DOMAIN),
    OracleCase(OP, {}, [X, B, R, np.array(0.5, np.float32), np.array(False)], (1,), oracle=added(X, B, R), rtol=1e-6,
               id="training-false", domain=DOMAIN),
]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


def test_inference_mask_sets_one_bit_per_element() -> None:
    _, mask = run(DOMAIN, OP, 1, [X, B, R])
    assert mask.dtype == np.uint32
    assert mask.tolist() == [0xFFFFFFFF, 0x1]


def test_training_mask_is_bias_dropouts_mask_packed() -> None:
    inputs = [X, B, R, np.array(0.375, np.float32), np.array(True)]
    output, packed = run(DOMAIN, OP, 1, inputs, seed=4)
    plain, boolean = run("com.microsoft", "BiasDropout", 1, inputs, seed=4)
    np.testing.assert_array_equal(output, plain)
    bits = unpack_bits(packed, X.size).reshape(X.shape).astype(bool)
    np.testing.assert_array_equal(bits, boolean)
    assert int(packed[1]) >> 1 == 0  # spare bits 0
    first_word = sum(1 << i for i, kept in enumerate(boolean.reshape(-1)[:32]) if kept)
    assert int(packed[0]) == first_word  # element i is bit i (least significant first)
    call = random_call(version(DOMAIN, OP, 1), inputs, {"seed": 4})
    assert call is not None
    assert random_output_problems(call, {"output": output, "mask": packed}) == []
    reversed_bits = np.array([int(f"{int(w):032b}"[::-1], 2) for w in packed], np.uint32)
    assert random_output_problems(call, {"output": output, "mask": reversed_bits}) != []


@pytest.mark.parametrize("shape", [(3, 11), (64,), (2, 2, 8)])
def test_shape_formula_packs_the_mask(shape: tuple[int, ...]) -> None:
    x = f32(*shape)
    want = [list(shape), [-(-x.size // 32)]]
    assert formula_shapes(version(DOMAIN, OP, 1), [x, f32(shape[-1])]) == want
    assert [list(y.shape) for y in run(DOMAIN, OP, 1, [x, f32(shape[-1])])] == want


@pytest.mark.parametrize(("shapes", "check"), [
    pytest.param([[2, 3], [2]], "bitmaskbiasdropout_c2", id="bias-length"),
    pytest.param([[2, 3], [3], [3, 2]], "bitmaskbiasdropout_c3", id="residual-shape"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int]], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, {})
