"""com.microsoft Irfft: onnxruntime has only a CUDA kernel (cuFFT), so the kernel is checked against what that kernel
means: a spectrum of m one-sided bins computed by ai.onnx DFT nodes (onnxruntime's CPU provider) from a real signal
of 2 * m - 1 samples comes back to that signal (1 to 3 signal axes, batches, float, double, float16); and a 1-D
spectrum of arbitrary bins gives the hand-derived sum y[t] = (X_0 + 2 sum_k Re(X_k e^(2 pi i k t / n))) / n. Then
the shape formula (and the reading of onnxruntime's schema text) and rejected nodes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from onnx import TensorProto, helper

from tests.helpers import OracleCase, Seeded, formula_shapes, oracle_tests, problem_checks, run, version
from tests.helpers.ai_onnx_graphs import run_ai_onnx_graph, scalar_int64

DOMAIN = "com.microsoft"
OP = "Irfft"
data = Seeded(53)


def spectrum(y: np.ndarray, signal_ndim: int) -> np.ndarray:
    """rfftn of y over its last signal_ndim axes by ai.onnx DFT-20 nodes, as (real, imaginary) pairs."""
    nodes = [helper.make_node("Cast", ["x"], ["xf"], to=TensorProto.DOUBLE),
             helper.make_node("Constant", [], ["last"], value=helper.make_tensor("last", TensorProto.INT64, [1], [-1])),
             helper.make_node("Unsqueeze", ["xf", "last"], ["xc"])]
    current = "xc"
    for k in range(signal_ndim):
        nodes += [scalar_int64(f"axis{k}", -2 - k),
                  helper.make_node("DFT", [current, "", f"axis{k}"], [f"y{k}"], onesided=1 if k == 0 else 0)]
        current = f"y{k}"
    (z,) = run_ai_onnx_graph(nodes, {"x": y.astype(np.float64)}, [current])
    return np.asarray(z).astype(y.dtype)


def round_trip(y: np.ndarray, signal_ndim: int, id: str, rtol: float = 1e-5) -> OracleCase:
    assert y.shape[-1] % 2 == 1, "an odd signal length 2 * m - 1 is what m bins come back to"
    return OracleCase(OP, {"signal_ndim": signal_ndim}, [spectrum(y, signal_ndim)], (1,), oracle=lambda: [y],
                      rtol=rtol, id=id, domain=DOMAIN)


def by_hand(x: np.ndarray) -> list[np.ndarray]:
    """The 1-D inverse of m one-sided bins to n = 2 m - 1 samples, summed term by term in double."""
    m = x.shape[-1 - 1]
    n = 2 * m - 1
    z = x[..., 0].astype(np.float64) + 1j * x[..., 1].astype(np.float64)
    t = np.arange(n)
    y = np.real(z[..., :1]) + 2 * sum(np.real(z[..., k:k + 1] * np.exp(2j * np.pi * k * t / n)) for k in range(1, m))
    return [np.asarray(y / n).astype(x.dtype)]


def arbitrary(x: np.ndarray, id: str) -> OracleCase:
    return OracleCase(OP, {"signal_ndim": 1}, [x], (1,), oracle=lambda: by_hand(x), rtol=1e-5, id=id, domain=DOMAIN)


CASES = [
    round_trip(data.f32(9), 1, "1d_n9"),
    round_trip(data.f32(3, 7), 1, "batch_n7"),
    round_trip(data.f32(1), 1, "n1"),
    round_trip(data.f32(2, 4, 7), 2, "2d"),
    round_trip(data.f32(4, 3, 5), 3, "3d"),
    round_trip(data.f32(2, 2, 3, 4, 5), 3, "3d_batch"),
    round_trip(data.f32(3, 11).astype(np.float64), 1, "double", rtol=1e-12),
    round_trip(data.f32(2, 3, 5).astype(np.float16), 2, "fp16", rtol=1e-2),
    arbitrary(data.f32(5, 2), "bins_1d"),
    arbitrary(data.f32(3, 4, 2), "bins_batch"),
]

test_kernel_matches_its_meaning, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize(("shape", "signal_ndim", "want"), [
    pytest.param([5, 2], 1, [9], id="m5"),
    pytest.param([3, 4, 2], 1, [3, 7], id="batch"),
    pytest.param([2, 6, 5, 2], 2, [2, 6, 9], id="2d"),
])
def test_shape_formula_matches_the_kernel(shape: list[int], signal_ndim: int, want: list[int]) -> None:
    assert formula_shapes(version(DOMAIN, OP, 1), [shape], {"signal_ndim": signal_ndim}) == [want]
    (y,) = run(DOMAIN, OP, 1, [data.f32(*shape)], signal_ndim=signal_ndim)
    assert list(y.shape) == want


def test_schema_texts_length_is_a_reading() -> None:
    (reading,) = version(DOMAIN, OP, 1).readings
    assert reading.id == "irfft_r1"
    assert formula_shapes(version(DOMAIN, OP, 1), [[3, 5, 2]], {"signal_ndim": 1}) == [[3, 9]]


@pytest.mark.parametrize(("shape", "attrs", "check"), [
    pytest.param([5, 2], {"signal_ndim": 2}, "irfft_c1", id="rank_below_signal"),
    pytest.param([5, 3], {"signal_ndim": 1}, "irfft_c2", id="not_pairs"),
    pytest.param([0, 2], {"signal_ndim": 1}, "irfft_c3", id="no_bins"),
    pytest.param([5, 2], {"signal_ndim": 0}, "attr_range", id="signal_ndim_0"),
    pytest.param([5, 2], {"signal_ndim": 1, "normalized": 1}, "attr_allowed", id="normalized"),
    pytest.param([5, 2], {}, "attr_required", id="no_signal_ndim"),
])
def test_invalid_node_reports_the_check(shape: list[int], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), [shape], attrs)
