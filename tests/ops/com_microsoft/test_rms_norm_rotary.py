"""com.microsoft RMSNormRotary: no reference kernel (a CUDA-only op; see its `no_reference_kernel`). The shape formulas
against the shapes onnxruntime's schema text gives ((B, S, heads * width), or (1, B * S, heads * width) with
flatten_batch, and the optional (B, S, heads, width) normalized_fp32), the constraints each reported under its id, and
onnxruntime's CPU provider still without a kernel for it."""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest

from conformance.kernels import no_reference_kernel
from conformance.kernels.registry import find_kernel
from tests.helpers import formula_shapes, one_node_model, problem_checks, run_onnxruntime, version

DOMAIN = "com.microsoft"
OP = "RMSNormRotary"
B, S, NH, ST, R = 2, 3, 4, 16, 8
X, SCALE, POS, COS = [B, S, NH, ST], [ST], [B, S], [R, 4]  # rotary_embedding_dim 8: caches 4 wide


def shapes(x: list[int] = X, scale: list[int] = SCALE, pos: list[int] = POS, cos: list[int] = COS,
           sin: list[int] | None = None, prefill: list[int] | None = None) -> list[Any]:
    return [x, scale, pos, cos, sin if sin is not None else cos, prefill]


@pytest.mark.parametrize(("attrs", "inputs", "want"), [
    pytest.param({"rotary_embedding_dim": 8}, shapes(), [[B, S, NH * ST], [B, S, NH, ST]], id="whole_last_axis"),
    pytest.param({"rotary_embedding_dim": 8, "flatten_batch": 1}, shapes(), [[1, B * S, NH * ST], [B, S, NH, ST]],
                 id="flatten_batch"),
    pytest.param({"rotary_embedding_dim": 8, "input_start": 4, "input_width": 10}, shapes(scale=[10]),
                 [[B, S, NH * 10], [B, S, NH, 10]], id="slice"),
    pytest.param({"rotary_embedding_dim": 8}, shapes(pos=[1], prefill=[]), [[B, S, NH * ST], [B, S, NH, ST]],
                 id="base_position_and_prefill_control"),
])
def test_shape_formulas(attrs: dict[str, Any], inputs: list[Any], want: list[list[int]]) -> None:
    assert formula_shapes(version(DOMAIN, OP, 1), inputs, attrs) == want


@pytest.mark.parametrize(("attrs", "inputs", "check"), [
    pytest.param({"rotary_embedding_dim": 8}, shapes(scale=[ST - 1]), "rmsnormrotary_c1", id="scale_length"),
    pytest.param({"rotary_embedding_dim": 8, "input_start": 8, "input_width": 10}, shapes(scale=[10]),
                 "rmsnormrotary_c1", id="slice_past_last_axis"),
    pytest.param({"rotary_embedding_dim": 6}, shapes(), "rmsnormrotary_c2", id="caches_not_half_rot"),
    pytest.param({"rotary_embedding_dim": 7}, shapes(cos=[R, 3]), "rmsnormrotary_c2", id="odd_rot"),
    pytest.param({"rotary_embedding_dim": 8, "input_width": 6}, shapes(scale=[6]), "rmsnormrotary_c2",
                 id="rot_past_width"),
    pytest.param({"rotary_embedding_dim": 8}, shapes(sin=[R + 1, 4]), "rmsnormrotary_c3", id="sine_shape"),
    pytest.param({"rotary_embedding_dim": 8}, shapes(pos=[B, S + 1]), "rmsnormrotary_c4", id="position_shape"),
    pytest.param({"rotary_embedding_dim": 8}, shapes(prefill=[2]), "rmsnormrotary_c5", id="prefill_two_values"),
])
def test_invalid_node_reports_the_check(attrs: dict[str, Any], inputs: list[Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), inputs, attrs)


def test_the_reference_has_no_kernel_and_says_why() -> None:
    assert find_kernel(DOMAIN, OP, 1) is None
    assert "CUDA-only" in (no_reference_kernel(DOMAIN, OP) or "")


def test_onnxruntime_has_no_cpu_kernel() -> None:
    """The reason its `no_reference_kernel` gives holds while this passes: if it fails, onnxruntime gained a CPU
    kernel that could be the oracle of a reference kernel."""
    from onnxruntime.capi.onnxruntime_pybind11_state import NotImplemented as OrtNotImplemented

    rng = np.random.default_rng(3)
    bf16 = ml_dtypes.bfloat16
    inputs = [rng.standard_normal(X).astype(bf16), np.ones(ST, np.float32), np.zeros(POS, np.int64),
              np.ones(COS, np.float32), np.zeros(COS, np.float32)]
    model, feeds = one_node_model(OP, 1, inputs, {"rotary_embedding_dim": 8}, 1, domain=DOMAIN)
    with pytest.raises(OrtNotImplemented, match=r"Could not find an implementation for RMSNormRotary\(1\)"):
        run_onnxruntime(model, feeds)
