"""com.microsoft MoEGroupRouter: the kernel against onnxruntime's CPU kernel (plain top-k, group-limited
selection, the sentinel, float16, the full-score outputs with and without the projection), the shape formula
against onnxruntime, rejected nodes under their constraint ids, and a routing by hand."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from tests.helpers import (
    OracleCase,
    Seeded,
    assert_matches_oracle,
    assert_registry_ranges_exercised,
    oracle_params,
    problem_checks,
    run,
    version,
)
from tests.helpers.oracles import run_onnxruntime
from tests.helpers.ort_outputs import assert_output_shapes_match_onnxruntime

DOMAIN = "com.microsoft"
OP = "MoEGroupRouter"
f32 = Seeded(61).f32
E = 8
DEFAULTS = {"group_topk": 2, "n_group": 1, "router_sentinel": -10000.0, "topk_group": 1}


def _case(ident: str, attrs: dict[str, Any], inputs: list[np.ndarray], rtol: float = 1e-5) -> OracleCase:
    return OracleCase(OP, attrs, inputs, (1,), oracle="ort", rtol=rtol, id=ident, domain=DOMAIN)


CASES = [
    _case("top2", {"top_k": 2}, [f32(5, E), f32(E)]),
    _case("groups-3d", {"top_k": 3, "n_group": 4, "topk_group": 2, "group_topk": 2}, [f32(2, 3, E), f32(E)]),
    _case("one-group-sentinel", {"top_k": 2, "n_group": 2, "topk_group": 1, "group_topk": 1,
                                 "router_sentinel": -1.0}, [f32(6, E), f32(E)]),
    _case("group-topk-clamped", {"top_k": 2, "n_group": 4, "topk_group": 3, "group_topk": 5}, [f32(4, E), f32(E)]),
    _case("float16", {"top_k": 2, "n_group": 2, "topk_group": 1}, [f32(6, E).astype(np.float16), f32(E)],
          rtol=1e-3),
]


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_onnxruntime(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


def _full_score_model(projection: bool) -> onnx.ModelProto:
    names = ["x", "b", "w"] if projection else ["x", "b"]
    node = helper.make_node(OP, names, ["", "selection_scores", "router_weights"], domain=DOMAIN, top_k=2)
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info(n, TensorProto.FLOAT, None) for n in names],
                              [helper.make_tensor_value_info(n, TensorProto.FLOAT, None)
                               for n in ("selection_scores", "router_weights")])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18), helper.make_opsetid(DOMAIN, 1)])


@pytest.mark.parametrize("projection", [False, True])
def test_full_score_outputs_match_onnxruntime(projection: bool) -> None:
    """The full-score outputs come without router_probs, which a one-node oracle case cannot leave out."""
    x, bias = (f32(5, 256) if projection else f32(5, E)), f32(E)
    weight = (f32(E, 256) * 0.05).astype(np.float32) if projection else None
    feeds = {"x": x, "b": bias} | ({"w": weight} if weight is not None else {})
    want = run_onnxruntime(_full_score_model(projection), feeds)
    got = run(DOMAIN, OP, 1, [x, bias, weight], **DEFAULTS, top_k=2)
    for w, g in zip(want, got[1:], strict=True):
        assert g.dtype == np.float32
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


def test_routing_by_hand() -> None:
    """Two groups of two: biased scores [.1, .9 | .6, .5]; group sums (group_topk 2) 1.0 and 1.1 keep group 1, whose
    best expert is 2 even though expert 1 has the best score overall."""
    s = np.array([0.1, 0.9, 0.6, 0.5])
    logits = np.log(s / (1 - s)).astype(np.float32)[None]
    got = run(DOMAIN, OP, 1, [logits, np.zeros(4, np.float32), None], **{**DEFAULTS, "n_group": 2}, top_k=1)[0]
    np.testing.assert_allclose(got, [[-10000.0, -10000.0, np.log(0.6), -10000.0]], rtol=1e-6)


def test_shape_formula_matches_onnxruntime() -> None:
    assert_output_shapes_match_onnxruntime(DOMAIN, OP, 1, [f32(2, 3, E), f32(E)], {"top_k": 2})


@pytest.mark.parametrize(("shapes", "attrs", "check"), [
    pytest.param([[4, E + 1], [E]], {}, "moegrouprouter_c1", id="experts"),
    pytest.param([[4, 256], [E], [E, 128]], {}, "moegrouprouter_c2", id="projection"),
    pytest.param([[4, E], [E]], {"n_group": 3}, "moegrouprouter_c3", id="groups_divide"),
    pytest.param([[4, E], [E]], {"n_group": 2, "topk_group": 3}, "moegrouprouter_c4", id="topk_group"),
    pytest.param([[4, E], [E]], {"top_k": E + 1}, "moegrouprouter_c5", id="top_k"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int]], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, {"top_k": 2, **attrs})
