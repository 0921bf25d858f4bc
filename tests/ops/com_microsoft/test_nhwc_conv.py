"""com.microsoft NhwcConv: onnxruntime has no CPU kernel for it (CUDA only), so the kernel is checked against the
equivalent subgraph Transpose -> Conv -> Transpose that onnxruntime's CPU provider runs, over groups, strides, pads,
dilations, auto_pad, 1-D to 3-D and float16; the shape formula against that subgraph's output; rejected nodes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from tests.helpers import OracleCase, Seeded, formula_shapes, oracle_tests, problem_checks, version
from tests.helpers.ort_graphs import node, run_ort_graph

DOMAIN = "com.microsoft"
OP = "NhwcConv"
f32 = Seeded(18).f32


def subgraph(x: np.ndarray, w: np.ndarray, b: np.ndarray | None, attrs: dict[str, Any]) -> Callable[[], list[Any]]:
    r = x.ndim
    feeds = {"x": x, "w": w} if b is None else {"x": x, "w": w, "b": b}

    def run() -> list[Any]:
        nodes = [node("Transpose", ["x"], ["xc"], perm=[0, r - 1, *range(1, r - 1)]),
                 node("Conv", ["xc", "w", *(["b"] if b is not None else [])], ["yc"], **attrs),
                 node("Transpose", ["yc"], ["y"], perm=[0, *range(2, r), 1])]
        return run_ort_graph(nodes, feeds, ["y"])

    return run


def _case(x: np.ndarray, w: np.ndarray, b: np.ndarray | None, attrs: dict[str, Any], ident: str,
          rtol: float = 1e-4) -> OracleCase:
    return OracleCase(OP, attrs, [x, w, b], (1,), oracle=subgraph(x, w, b, attrs), rtol=rtol, id=ident,
                      domain=DOMAIN)


CASES = [
    _case(f32(2, 6, 5, 4), f32(6, 2, 3, 2), f32(6), {"group": 2, "strides": [2, 1], "pads": [1, 0, 0, 1],
                                                      "dilations": [1, 2]}, "2d-window-bias"),
    _case(f32(1, 5, 5, 3), f32(4, 3, 3, 3), None, {"auto_pad": "SAME_UPPER", "strides": [2, 2]}, "same-upper"),
    _case(f32(1, 7, 3), f32(2, 3, 3), f32(2), {"auto_pad": "VALID", "strides": [2]}, "1d-valid"),
    _case(f32(1, 3, 4, 3, 2), f32(3, 2, 2, 2, 2), None, {"pads": [1, 0, 1, 0, 1, 1]}, "3d"),
    _case(f32(1, 5, 4, 4).astype(np.float16), f32(4, 2, 2, 2).astype(np.float16), f32(4).astype(np.float16),
          {"group": 2}, "fp16", 1e-2),
]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in CASES])
def test_shape_formula_matches_the_subgraph(case: OracleCase) -> None:
    assert callable(case.oracle)
    want = list(case.oracle()[0].shape)
    assert formula_shapes(version(DOMAIN, OP, 1), case.inputs, case.attrs)[0] == want


@pytest.mark.parametrize(("shapes", "attrs", "check"), [
    pytest.param([[2, 6, 5, 4], [6, 3, 3, 2]], {"group": 2}, "nhwcconv_c2", id="channels"),
    pytest.param([[2, 6, 5, 4], [5, 2, 3, 2]], {"group": 2}, "nhwcconv_c3", id="filters-group"),
    pytest.param([[2, 6, 5, 4], [6, 4, 3, 2]], {"kernel_shape": [2, 2]}, "nhwcconv_c4", id="kernel-shape"),
    pytest.param([[2, 4], [6, 4]], {}, "nhwcconv_c7", id="no-spatial-axis"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int]], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, attrs)
