"""com.microsoft GatherPacked: the kernel against onnxruntime (the GGML types it computes: F32, F16, BF16, Q8_0,
Q4_0, Q5_0, IQ4_NL; output float, float16 and bfloat16; int32 and int64 indices of rank 0 to 2, negative and past
the table ones reading row 0; K of one and several blocks), the shape and type formula against onnxruntime's,
rejected nodes."""

from __future__ import annotations

from functools import partial
from typing import Any

import ml_dtypes
import numpy as np
import onnx
import pytest
from onnx import helper

from conformance.kernels.com_microsoft.gather_packed import LAYOUTS
from tests.helpers import (
    OracleCase,
    Seeded,
    assert_examples_match_kernel_and_formula,
    formula_shapes,
    inferred,
    one_node_model,
    oracle_tests,
    problem_checks,
    run_onnxruntime,
    version,
)

DOMAIN = "com.microsoft"
OP = "GatherPacked"
data = Seeded(51)
VOCAB = 5
NAMES = {0: "F32", 1: "F16", 30: "BF16", 8: "Q8_0", 2: "Q4_0", 6: "Q5_0", 20: "IQ4_NL"}


def table(packed_type: int, k: int) -> np.ndarray:
    """A [VOCAB, row bytes] blob: plain values for the float types; for the block types random bytes whose first
    two bytes per block are a float16 scale (random bytes there could make an infinite or NaN scale)."""
    per_block, size = LAYOUTS[packed_type]
    if packed_type in (0, 1, 30):
        dt = {0: np.dtype("<f4"), 1: np.dtype("<f2"), 30: np.dtype(ml_dtypes.bfloat16)}[packed_type]
        return np.ascontiguousarray(data.f32(VOCAB, k).astype(dt)).view(np.uint8).reshape(VOCAB, -1)
    blocks = data.ints(0, 256, (VOCAB, k // per_block, size), np.uint8)
    scales = (np.abs(data.f32(VOCAB, k // per_block, 1)) * 0.05 + 0.01).astype("<f2")
    blocks[..., :2] = np.ascontiguousarray(scales).view(np.uint8)
    return blocks.reshape(VOCAB, -1)


def onnxruntime_outputs(inputs: list[np.ndarray], attrs: dict[str, Any]) -> list[np.ndarray]:
    """onnxruntime's output; a bfloat16 one (which its Python binding cannot hand back) through an ai.onnx Cast to
    float appended to the node, then back to bfloat16 (exact: every bfloat16 is a float)."""
    model, feeds = one_node_model(OP, 1, inputs, attrs, 1, domain=DOMAIN)
    if attrs.get("output_dtype") != 16:
        return list(run_onnxruntime(model, feeds))
    model.graph.node.append(helper.make_node("Cast", ["out0"], ["as_float"], to=onnx.TensorProto.FLOAT))
    model.graph.output[0].name = "as_float"
    return [np.asarray(y).astype(ml_dtypes.bfloat16) for y in run_onnxruntime(model, feeds)]


INDICES = {
    "vector": np.array([4, 0, 2, 2], np.int64),
    "scalar": np.array(3, np.int64),
    "matrix-outside": np.array([[1, -1, 7], [5, -6, 3]], np.int64),
}
CASES = [OracleCase(OP, attrs, xs, (1,), oracle=partial(onnxruntime_outputs, xs, attrs), rtol=1e-6,
                    id=f"{NAMES[t]}-K{k}-out{out}-{name}-{np.dtype(it).name}", domain=DOMAIN)
         for t in NAMES for k in ([32, 64] if LAYOUTS[t][0] == 32 else [3, 32]) for out in (1, 10, 16)
         for (name, idx), it in zip(INDICES.items(), (np.int64, np.int32, np.int64), strict=True)
         for attrs in [{"K": k, "packed_type": t, "output_dtype": out}] for xs in [[table(t, k), idx.astype(it)]]]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


def test_examples() -> None:
    assert_examples_match_kernel_and_formula(DOMAIN, OP)


@pytest.mark.parametrize(("name", "out"), [(n, o) for n in INDICES for o in (1, 10, 16)])
def test_shape_and_type_formula_match_onnxruntime(name: str, out: int) -> None:
    attrs = {"K": 64, "packed_type": 2, "output_dtype": out}
    inputs = [table(2, 64), INDICES[name]]
    mine = formula_shapes(version(DOMAIN, OP, 1), inputs, attrs)
    y = onnxruntime_outputs(inputs, attrs)[0]
    assert mine[0] == list(y.shape)
    types = inferred(version(DOMAIN, OP, 1), inputs, attrs).types
    assert types == [{1: "tensor(float)", 10: "tensor(float16)", 16: "tensor(bfloat16)"}[out]], types
    import onnxruntime as ort

    model, _ = one_node_model(OP, 1, inputs, attrs, 1, domain=DOMAIN)
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    assert [o.type for o in session.get_outputs()] == types


@pytest.mark.parametrize(("attrs", "row_bytes", "check"), [
    ({"K": 48, "packed_type": 8}, 51, "gatherpacked_c1"),
    ({"K": 64, "packed_type": 2}, 34, "gatherpacked_c2"),
    ({"K": 8, "packed_type": 1}, 32, "gatherpacked_c2"),
    ({"K": 256, "packed_type": 13}, 170, "gatherpacked_c2"),
    ({"K": 32, "packed_type": 3}, 18, "allowed"),
    ({"K": 32, "packed_type": 8, "output_dtype": 11}, 34, "allowed"),
    ({"K": 0, "packed_type": 0}, 0, "range"),
])
def test_invalid_node_is_reported(attrs: dict[str, Any], row_bytes: int, check: str) -> None:
    checks = problem_checks(version(DOMAIN, OP, 1), [[VOCAB, row_bytes], [3]], attrs)
    assert any(check in c for c in checks), checks
