"""com.microsoft BitmaskDropout: onnxruntime runs it on CUDA only. In inference the output is checked against ai.onnx
Dropout (opset 13, training_mode false) run by onnxruntime's CPU provider, and the mask is all ones, spare bits
included (onnxruntime fills every word); in training the packed mask (element i is bit i % 32 of word i // 32, spare
bits 0) agrees with the output by the dropout law (tests/ops/test_random_laws.py tests the law itself); the shape
formula of the packed mask."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from conformance.runner.random_outputs import random_call, random_output_problems, unpack_bits
from tests.helpers import OracleCase, Seeded, formula_shapes, oracle_tests, run, version
from tests.helpers.ort_graphs import node, run_ort_graph

DOMAIN = "com.microsoft"
OP = "BitmaskDropout"
f32 = Seeded(39).f32
X = f32(5, 7)  # 35 elements: two mask words


def onnx_dropout(data: np.ndarray, ratio: np.ndarray) -> Callable[[], list[Any]]:
    def run_it() -> list[Any]:
        nodes = [node("Dropout", ["data", "ratio", "training_mode"], ["y"])]
        return run_ort_graph(nodes, {"data": data, "ratio": ratio, "training_mode": np.array(False)}, ["y"])

    return run_it


RATIO = np.array(0.25, np.float32)
CASES = [
    OracleCase(OP, {}, [X, RATIO, np.array(False)], (1,), oracle=onnx_dropout(X, RATIO), rtol=0, id="inference",
               domain=DOMAIN),
    OracleCase(OP, {}, [X.astype(np.float16), RATIO], (1,), oracle=onnx_dropout(X.astype(np.float16), RATIO), rtol=0,
               id="fp16-no-training-mode", domain=DOMAIN),
]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


def test_inference_mask_is_all_ones() -> None:
    _, mask = run(DOMAIN, OP, 1, [X])
    assert mask.dtype == np.uint32 and mask.tolist() == [0xFFFFFFFF, 0xFFFFFFFF]


def test_training_output_agrees_with_the_packed_mask() -> None:
    inputs = [X, np.array(0.375, np.float32), np.array(True)]
    output, packed = run(DOMAIN, OP, 1, inputs, seed=9)
    keep = unpack_bits(packed, X.size).reshape(X.shape).astype(bool)
    np.testing.assert_allclose(output, np.where(keep, X / 0.625, 0.0), rtol=1e-6)
    assert int(packed[1]) >> 3 == 0  # 35 elements: three bits of the second word in use, the rest 0
    call = random_call(version(DOMAIN, OP, 1), inputs, {"seed": 9})
    assert call is not None
    assert random_output_problems(call, {"output": output, "mask": packed}) == []
    assert random_output_problems(call, {"output": output, "mask": ~packed}) != []


@pytest.mark.parametrize("shape", [(5, 7), (32,), (2, 40)])
def test_shape_formula_packs_the_mask(shape: tuple[int, ...]) -> None:
    x = f32(*shape)
    want = [list(shape), [-(-x.size // 32)]]
    assert formula_shapes(version(DOMAIN, OP, 1), [x]) == want
    assert [list(y.shape) for y in run(DOMAIN, OP, 1, [x])] == want
