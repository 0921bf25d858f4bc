"""com.microsoft ComplexMulConj: onnxruntime has only a CUDA kernel, so the kernel is checked against A * conj(B) built
from ai.onnx nodes (Gather the real and imaginary parts, Mul, Add, Sub, Concat) run by onnxruntime's CPU provider: equal
shapes, broadcasting either way, a rank-1 pair, float, double, float16. Then the shape formula and rejected nodes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from onnx import helper

from tests.helpers import OracleCase, Seeded, formula_shapes, oracle_tests, problem_checks, run, version
from tests.helpers.ai_onnx_graphs import ints_int64, run_ai_onnx_graph, scalar_int64

DOMAIN = "com.microsoft"
OP = "ComplexMulConj"
data = Seeded(61)


def by_nodes(a: np.ndarray, b: np.ndarray) -> list[Any]:
    """A * conj(B) on (real, imaginary) pairs, broadcast as Mul broadcasts, by ai.onnx nodes."""
    nodes = [scalar_int64("zero", 0), scalar_int64("one", 1), ints_int64("last", [-1])]
    for name in ("a", "b"):
        nodes += [helper.make_node("Gather", [name, "zero"], [f"{name}0"], axis=-1),
                  helper.make_node("Gather", [name, "one"], [f"{name}1"], axis=-1)]
    for p, q in (("a0", "b0"), ("a1", "b1"), ("a0", "b1"), ("a1", "b0")):
        nodes.append(helper.make_node("Mul", [p, q], [p + q]))
    for kind, args, out in (("Add", ["a0b0", "a1b1"], "re"), ("Sub", ["a1b0", "a0b1"], "im")):
        nodes.append(helper.make_node(kind, args, [out]))
    nodes += [helper.make_node("Unsqueeze", ["re", "last"], ["re1"]),
              helper.make_node("Unsqueeze", ["im", "last"], ["im1"]),
              helper.make_node("Concat", ["re1", "im1"], ["c"], axis=-1)]
    return run_ai_onnx_graph(nodes, {"a": a, "b": b}, ["c"])


def case(a: np.ndarray, b: np.ndarray, id: str, rtol: float = 1e-5) -> OracleCase:
    return OracleCase(OP, {}, [a, b], (1,), oracle=lambda: by_nodes(a, b), rtol=rtol, id=id, domain=DOMAIN)


CASES = [
    case(data.f32(3, 4, 2), data.f32(3, 4, 2), "same_shape"),
    case(data.f32(3, 1, 2), data.f32(5, 2), "broadcast_both"),
    case(data.f32(2), data.f32(2, 3, 2), "pair_times_tensor"),
    case(data.f32(4, 3, 2), data.f32(1, 3, 2), "broadcast_b"),
    case(data.f32(6, 2).astype(np.float64), data.f32(6, 2).astype(np.float64), "double", rtol=1e-12),
    case(data.f32(2, 5, 2).astype(np.float16), data.f32(5, 2).astype(np.float16), "fp16", rtol=5e-3),
]

test_kernel_matches_ai_onnx_nodes, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


def test_unit_imaginary() -> None:
    i = np.array([0.0, 1.0], np.float32)
    (c,) = run(DOMAIN, OP, 1, [i, i])
    np.testing.assert_array_equal(c, [1.0, 0.0])  # i * conj(i) = 1


@pytest.mark.parametrize(("shapes", "want"), [
    pytest.param([[3, 1, 2], [5, 2]], [3, 5, 2], id="broadcast"),
    pytest.param([[2], [4, 2]], [4, 2], id="pair"),
])
def test_shape_formula_matches_the_kernel(shapes: list[list[int]], want: list[int]) -> None:
    assert formula_shapes(version(DOMAIN, OP, 1), shapes) == [want]
    (c,) = run(DOMAIN, OP, 1, [data.f32(*s) for s in shapes])
    assert list(c.shape) == want


@pytest.mark.parametrize(("shapes", "check"), [
    pytest.param([[3, 3], [3, 2]], "complexmulconj_c1", id="a_not_pairs"),
    pytest.param([[3, 2], [3, 1]], "complexmulconj_c2", id="b_not_pairs"),
    pytest.param([[3, 2], []], "complexmulconj_c2", id="b_scalar"),
    pytest.param([[3, 2], [4, 2]], "formula", id="no_broadcast"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int]], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, {})
