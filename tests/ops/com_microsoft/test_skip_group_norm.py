"""com.microsoft SkipGroupNorm. onnxruntime has only a CUDA kernel, so the kernel (Y and S) is checked against the
equivalent ai.onnx subgraph (Add skip and bias, then GroupNorm's subgraph) run by onnxruntime's CPU provider."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    Seeded,
    assert_matches_oracle,
    assert_registry_ranges_exercised,
    formula_shapes,
    oracle_params,
    problem_checks,
    version,
)
from tests.helpers.ort_subgraphs import group_norm_subgraph

DOMAIN = "com.microsoft"
OP = "SkipGroupNorm"
data = Seeded(37)


def case(last: int, skip_kind: str, with_bias: bool, act: int, id: str, dtype: Any = np.float32,
         rtol: float = 1e-5) -> OracleCase:
    x = (data.f32(2, 3, 4, 6) if last else data.f32(2, 6, 3, 4)).astype(dtype)
    c = 6
    per_channel = [2, 1, 1, c] if last else [2, c, 1, 1]
    skip = {"full": data.f32(*x.shape), "spatial_one": data.f32(*per_channel), "nc": data.f32(2, c)}[skip_kind]
    skip = skip.astype(dtype)
    bias = data.f32(c).astype(dtype) if with_bias else None
    gamma, beta = data.f32(c), data.f32(c)
    attrs: dict[str, Any] = {"groups": 3, "activation": act, "channels_last": last, "epsilon": 1e-5}
    broadcast = skip.reshape(per_channel) if skip_kind == "nc" else skip
    oracle = group_norm_subgraph(x, gamma, beta, skip=broadcast, bias=bias, groups=3, activation=act,
                                 channels_last=last, epsilon=1e-5)
    return OracleCase(OP, attrs, [x, gamma, beta, skip, bias], (1,), n_out=2, oracle=oracle, rtol=rtol, id=id,
                      domain=DOMAIN)


CASES = [
    *(case(last, kind, bias, act, f"last{last}_{kind}_bias{int(bias)}_act{act}")
      for last in (0, 1) for kind in ("full", "spatial_one", "nc") for bias in (False, True) for act in (0, 1)
      if (last + act + int(bias)) % 2 == 0 or kind == "nc"),
    case(1, "full", True, 1, "fp16", dtype=np.float16, rtol=3e-3),
]


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_the_onnx_subgraph(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


def test_shape_formulas_keep_the_input_shape() -> None:
    for c in CASES:
        assert formula_shapes(version(DOMAIN, OP, 1), c.inputs, c.attrs) == [list(c.inputs[0].shape)] * 2


@pytest.mark.parametrize(("shapes", "attrs", "check"), [
    pytest.param([[2, 3, 4, 6], [6], [6], [2, 3, 4, 6]], {"groups": 4}, "skipgroupnorm_c2", id="groups_not_dividing"),
    pytest.param([[2, 3, 4, 6], [6], [6], [2, 1, 4, 6]], {}, "skipgroupnorm_c4", id="skip_shape"),
    pytest.param([[2, 6, 4, 3], [6], [6], [2, 1, 1, 6]], {"channels_last": 0}, "skipgroupnorm_c4",
                 id="nhwc_skip_for_nchw"),
    pytest.param([[2, 3, 4, 6], [6], [6], [2, 6], [3]], {}, "skipgroupnorm_c5", id="bias_length"),
])
def test_invalid_node_reports_the_check(shapes: list[Any], attrs: dict[str, Any], check: str) -> None:
    attrs = {"groups": 2, "activation": 0, **attrs}
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, attrs)
