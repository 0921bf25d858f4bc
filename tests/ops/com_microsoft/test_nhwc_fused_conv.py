"""com.microsoft NhwcFusedConv: onnxruntime has no CPU kernel for it, so the kernel is checked against the
channels-first com.microsoft FusedConv (which onnxruntime's CPU provider runs) between Transposes, for every
activation and with Z; the shape formula against that subgraph; rejected nodes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from tests.helpers import OracleCase, Seeded, formula_shapes, oracle_tests, problem_checks, version
from tests.helpers.ort_graphs import node, run_ort_graph

DOMAIN = "com.microsoft"
OP = "NhwcFusedConv"
f32 = Seeded(19).f32


def subgraph(inputs: list[np.ndarray | None], attrs: dict[str, Any]) -> Callable[[], list[Any]]:
    x, w, b, z = inputs
    assert x is not None and w is not None
    r = x.ndim
    first, last = [0, r - 1, *range(1, r - 1)], [0, *range(2, r), 1]
    feeds = {k: v for k, v in (("x", x), ("w", w), ("b", b), ("z", z)) if v is not None}

    def run() -> list[Any]:
        nodes = [node("Transpose", ["x"], ["xc"], perm=first)]
        if z is not None:
            nodes.append(node("Transpose", ["z"], ["zc"], perm=first))
        conv_inputs = ["xc", "w", "b" if b is not None else "", "zc" if z is not None else ""]
        nodes += [node("FusedConv", conv_inputs, ["yc"], domain="com.microsoft", **attrs),
                  node("Transpose", ["yc"], ["y"], perm=last)]
        return run_ort_graph(nodes, feeds, ["y"])

    return run


ACTIVATIONS: list[dict[str, Any]] = [
    {}, {"activation": "Relu"}, {"activation": "Tanh"}, {"activation": "Sigmoid"},
    {"activation": "LeakyRelu", "activation_params": [0.25]}, {"activation": "Clip", "activation_params": [-0.5, 0.5]},
    {"activation": "HardSigmoid", "activation_params": [0.75, 0.25]},
]
WINDOW = {"group": 2, "strides": [2, 1], "pads": [1, 0, 0, 1]}
INPUTS: list[np.ndarray | None] = [f32(2, 6, 5, 4), f32(6, 2, 3, 2), f32(6), f32(2, 3, 5, 6)]
INPUTS_1D: list[np.ndarray | None] = [f32(1, 5, 3), f32(2, 3, 2), None, None]

CASES = [
    *[OracleCase(OP, {**a, **WINDOW}, INPUTS, (1,), oracle=subgraph(INPUTS, {**a, **WINDOW}), rtol=1e-4,
                 id=a.get("activation", "none"), domain=DOMAIN) for a in ACTIVATIONS],
    OracleCase(OP, {"activation": "Relu"}, INPUTS_1D, (1,), oracle=subgraph(INPUTS_1D, {"activation": "Relu"}),
               id="1d-no-z", domain=DOMAIN),
]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in CASES[:2]])
def test_shape_formula_matches_the_subgraph(case: OracleCase) -> None:
    assert callable(case.oracle)
    assert formula_shapes(version(DOMAIN, OP, 1), case.inputs, case.attrs)[0] == list(case.oracle()[0].shape)


@pytest.mark.parametrize(("shapes", "attrs", "check"), [
    pytest.param([[2, 6, 5, 4], [6, 2, 3, 2], [6], [2, 6, 3, 4]], WINDOW, "nhwcfusedconv_c7", id="z-channels-first"),
    pytest.param([[2, 6, 5, 4], [6, 4, 3, 2]], {"activation": "Clip"}, "nhwcfusedconv_c8", id="clip-no-params"),
    pytest.param([[2, 4], [6, 4]], {}, "nhwcfusedconv_c9", id="no-spatial-axis"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int]], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, attrs)
