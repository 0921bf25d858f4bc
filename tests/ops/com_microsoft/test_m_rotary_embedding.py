"""com.microsoft MRotaryEmbedding: the kernel against onnxruntime's CPU kernel (both layouts, interleaved, partial
rotation, 4-D input, scale, float16) and rejected nodes."""

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
    oracle_params,
    problem_checks,
    version,
)

DOMAIN = "com.microsoft"
OP = "MRotaryEmbedding"
data = Seeded(19)
B, S, N, H = 2, 3, 2, 12
X3, X4 = data.f32(B, S, N * H), data.f32(B, N, S, H)
COS, SIN = data.f32(10, H // 2), data.f32(10, H // 2)
POS = data.ints(0, 10, (3, B, S), np.int64)


def case(inputs: list[Any], attrs: dict[str, Any], id: str, rtol: float = 1e-5) -> OracleCase:
    return OracleCase(OP, attrs, inputs, (1,), oracle="ort", rtol=rtol, id=id, domain=DOMAIN)


CASES = [
    *(case([X3, POS, COS, SIN], {"mrope_section": sec, "mrope_layout": lay, "interleaved": il, "num_heads": N},
           f"layout{lay}_il{il}_{'_'.join(map(str, sec))}")
      for lay in (0, 1) for il in (0, 1) for sec in ([2, 2, 2], [1, 3, 2], [0, 1, 5])),
    case([X4, POS, COS, SIN], {"mrope_section": [3, 2, 1], "mrope_layout": 1}, "4d"),
    case([X3, POS, COS[:, :2].copy(), SIN[:, :2].copy()],
         {"mrope_section": [1, 1, 0], "rotary_embedding_dim": 4, "num_heads": N, "scale": 2.0}, "partial_scale"),
    case([X3.astype(np.float16), POS, COS.astype(np.float16), SIN.astype(np.float16)],
         {"mrope_section": [2, 3, 1], "mrope_layout": 1, "num_heads": N, "scale": 0.5}, "fp16", rtol=2e-3),
]


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_onnxruntime(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


def test_shape_formula_matches_onnxruntime() -> None:
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, [X3, POS, COS, SIN], {"mrope_section": [2, 2, 2], "num_heads": N})


@pytest.mark.parametrize(("shapes", "attrs", "check"), [
    pytest.param([[2, 3], [3, 2, 3], [10, 6], [10, 6]], {}, "mrotaryembedding_c1", id="rank2"),
    pytest.param([[2, 3, 24], [3, 2, 3], [10, 6], [10, 6]], {}, "mrotaryembedding_c2", id="3d_without_heads"),
    pytest.param([[2, 2, 3, 12], [3, 2, 3], [10, 6], [10, 4]], {}, "mrotaryembedding_c4", id="caches_differ"),
    pytest.param([[2, 2, 3, 12], [3, 2, 3], [10, 6], [10, 6]], {"mrope_section": [1, 3, 3]}, "mrotaryembedding_c5",
                 id="sections_sum"),
    pytest.param([[2, 2, 3, 12], [2, 3], [10, 6], [10, 6]], {}, "mrotaryembedding_c6", id="position_rank"),
])
def test_invalid_node_reports_the_check(shapes: list[Any], attrs: dict[str, Any], check: str) -> None:
    attrs = {"mrope_section": [2, 2, 2], **attrs}
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, attrs)
