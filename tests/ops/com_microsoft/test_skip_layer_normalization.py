"""com.microsoft SkipLayerNormalization: the kernel against onnxruntime's CPU kernel (every optional input and
output, skip broadcast over the batch, 2-D input, float16; bfloat16 runs in conform, the Python binding feeds
none), the shape formulas against onnxruntime, rejected nodes."""

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
    kernel_outputs,
    oracle_params,
    problem_checks,
    run,
    version,
)

DOMAIN = "com.microsoft"
OP = "SkipLayerNormalization"
BETA = 1  # whether the op has a beta input (between gamma and bias)
f32 = Seeded(13).f32
X, SKIP, G, BE, BI = f32(2, 3, 8), f32(2, 3, 8), f32(8), f32(8), f32(8)


def params(beta: np.ndarray | None, bias: np.ndarray | None) -> list[np.ndarray | None]:
    return [beta, bias] if BETA else [bias]


def case(inputs: list[Any], id: str, n_out: int = 4, rtol: float = 1e-5, attrs: dict[str, Any] | None = None
         ) -> OracleCase:
    return OracleCase(OP, attrs or {}, inputs, (1,), n_out=n_out, oracle="ort", rtol=rtol, id=id, domain=DOMAIN)


def cast(arrays: list[Any], dtype: Any) -> list[Any]:
    return [None if a is None else a.astype(dtype) for a in arrays]


CASES = [
    case([X, SKIP, G, *params(BE, BI)], "all"),
    case([X, SKIP, G, *params(None, None)], "no_beta_no_bias"),
    case([X, SKIP, G, *params(None, BI)], "bias_only"),
    case([X, SKIP, G, *params(BE, None)], "beta_only") if BETA else case([X, SKIP, G, None], "no_bias", n_out=1),
    case([X, SKIP[:1], G, *params(BE, BI)], "skip_batch_1"),
    case([X, SKIP[0], G, *params(BE, BI)], "skip_2d"),
    case([X[0], SKIP[0], G, *params(BE, BI)], "input_2d"),
    case([X, SKIP, G, *params(BE, BI)], "epsilon", attrs={"epsilon": 0.5}),
    case([X * 20 + 5, SKIP, G, *params(BE, BI)], "offset_rows", rtol=1e-4),
    case(cast([X, SKIP, G, *params(BE, BI)], np.float16), "fp16", rtol=2e-3),
]


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_onnxruntime(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)
    assert [o.dtype for o in kernel_outputs(case, opset)][1:3] == [np.float32, np.float32]


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


@pytest.mark.parametrize(("inputs", "message"), [
    pytest.param([X[0, 0], SKIP[0, 0], G, *params(None, None)], "2-D or 3-D", id="rank1"),
    pytest.param([X, SKIP[:, :1], G, *params(None, None)], "skip", id="skip_shape"),
    pytest.param([X[0], SKIP, G, *params(None, None)], "skip", id="skip_3d_for_2d"),
    pytest.param([X, SKIP, G[:4], *params(None, None)], "gamma", id="gamma_length"),
    pytest.param([X, SKIP, G, *params(None, BI[:4])], "bias", id="bias_length"),
])
def test_kernel_rejects_invalid_input(inputs: list[Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run(DOMAIN, OP, 1, inputs, epsilon=1e-12)


@pytest.mark.parametrize("inputs", [
    pytest.param([X, SKIP[0], G, *params(BE, BI)], id="3d"),
    pytest.param([X[0], SKIP[0], G, *params(None, None)], id="2d"),
])
def test_shape_formula_matches_onnxruntime(inputs: list[Any]) -> None:
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, inputs)


def test_optional_output_shapes_match_onnxruntime() -> None:
    from tests.helpers import formula_shapes, one_node_model, run_onnxruntime

    inputs = [X, SKIP[:1], G, *params(BE, BI)]
    model, feeds = one_node_model(OP, 1, inputs, {}, 4, domain=DOMAIN)
    theirs = [list(o.shape) for o in run_onnxruntime(model, feeds)]
    assert formula_shapes(version(DOMAIN, OP, 1), inputs, {}) == theirs


@pytest.mark.parametrize(("shapes", "check"), [
    pytest.param([[8], [8], [8]], "skiplayernormalization_c1", id="rank1"),
    pytest.param([[2, 2, 3, 8], [2, 2, 3, 8], [8]], "skiplayernormalization_c1", id="rank4"),
    pytest.param([[2, 3, 8], [2, 1, 8], [8]], "skiplayernormalization_c2", id="skip_shape"),
    pytest.param([[3, 8], [1, 3, 8], [8]], "skiplayernormalization_c2", id="skip_3d_for_2d"),
    pytest.param([[2, 3, 8], [2, 3, 8], [4]], "binding", id="gamma_length"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int]], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, {})
