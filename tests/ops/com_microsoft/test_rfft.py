"""com.microsoft Rfft: onnxruntime has only a CUDA kernel, so the kernel is checked against the same transform built
from ai.onnx DFT nodes and run by onnxruntime's CPU provider (a one-sided DFT along the last axis, then full DFTs
along the other signal axes): 1 to 3 signal axes, batches, odd lengths, float, double, float16. Then the shape
formula and rejected nodes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from onnx import TensorProto, helper

from tests.helpers import OracleCase, Seeded, formula_shapes, oracle_tests, problem_checks, run, version
from tests.helpers.ai_onnx_graphs import run_ai_onnx_graph, scalar_int64

DOMAIN = "com.microsoft"
OP = "Rfft"
data = Seeded(47)


def dft_oracle(x: np.ndarray, signal_ndim: int) -> list[Any]:
    """rfftn over the last signal_ndim axes by ai.onnx DFT-20 nodes: (real, imaginary) on a trailing axis of 2."""
    nodes = [helper.make_node("Cast", ["x"], ["xf"], to=TensorProto.DOUBLE),
             helper.make_node("Unsqueeze", ["xf", "last"], ["xc"]),
             helper.make_node("Constant", [], ["last"], value=helper.make_tensor("last", TensorProto.INT64, [1], [-1]))]
    current = "xc"
    for k in range(signal_ndim):  # the signal's last axis first (one-sided), then the others (complex, full)
        axis = -2 - k
        nodes += [scalar_int64(f"axis{k}", axis),
                  helper.make_node("DFT", [current, "", f"axis{k}"], [f"y{k}"], onesided=1 if k == 0 else 0)]
        current = f"y{k}"
    to = helper.np_dtype_to_tensor_dtype(x.dtype)
    nodes.append(helper.make_node("Cast", [current], ["y"], to=to))
    return run_ai_onnx_graph(nodes, {"x": x}, ["y"])


def case(x: np.ndarray, signal_ndim: int, id: str, rtol: float = 1e-5, **attrs: int) -> OracleCase:
    return OracleCase(OP, {"signal_ndim": signal_ndim, **attrs}, [x], (1,),
                      oracle=lambda: dft_oracle(x, signal_ndim), rtol=rtol, id=id, domain=DOMAIN)


CASES = [
    case(data.f32(8), 1, "1d_n8"),
    case(data.f32(3, 8), 1, "batch_n8", normalized=0, onesided=1),
    case(data.f32(2, 3, 7), 1, "batch_odd_n7"),
    case(data.f32(2, 6, 8), 2, "2d"),
    case(data.f32(4, 5, 6), 3, "3d_no_batch"),
    case(data.f32(2, 3, 4, 5, 6), 3, "3d_batch"),
    case(data.f32(2, 1), 1, "n1"),
    case(data.f32(3, 16).astype(np.float64), 1, "double", rtol=1e-12),
    case(data.f32(2, 4, 8).astype(np.float16), 2, "fp16", rtol=1e-2),
]

test_kernel_matches_dft_nodes, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize(("shape", "signal_ndim", "want"), [
    pytest.param([8], 1, [5, 2], id="n8"),
    pytest.param([2, 7], 1, [2, 4, 2], id="odd"),
    pytest.param([2, 6, 8], 2, [2, 6, 5, 2], id="2d"),
])
def test_shape_formula_matches_the_kernel_and_dft_nodes(shape: list[int], signal_ndim: int, want: list[int]) -> None:
    assert formula_shapes(version(DOMAIN, OP, 1), [shape], {"signal_ndim": signal_ndim}) == [want]
    x = data.f32(*shape)
    (y,) = run(DOMAIN, OP, 1, [x], signal_ndim=signal_ndim)
    assert list(y.shape) == want == list(dft_oracle(x, signal_ndim)[0].shape)


@pytest.mark.parametrize(("shape", "attrs", "check"), [
    pytest.param([4], {"signal_ndim": 2}, "rfft_c1", id="rank_below_signal"),
    pytest.param([4, 0], {"signal_ndim": 1}, "rfft_c2", id="empty_signal"),
    pytest.param([4, 8], {"signal_ndim": 4}, "attr_range", id="signal_ndim_4"),
    pytest.param([4, 8], {"normalized": 1}, "attr_allowed", id="normalized"),
    pytest.param([4, 8], {"onesided": 0}, "attr_allowed", id="two_sided"),
])
def test_invalid_node_reports_the_check(shape: list[int], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), [shape], attrs)
