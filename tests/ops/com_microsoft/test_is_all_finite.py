"""com.microsoft IsAllFinite: onnxruntime has only a CUDA kernel, so the kernel is checked against the same test built
from ai.onnx nodes (IsNaN, IsInf, ReduceMax, Equal) run by onnxruntime's CPU provider: one or several inputs, clean
or holding NaN, +inf or -inf, each attribute setting, every float type. Then the shape formula and rejected nodes."""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest
from onnx import TensorProto, helper

from tests.helpers import OracleCase, Seeded, formula_shapes, oracle_tests, problem_checks, version
from tests.helpers.ai_onnx_graphs import run_ai_onnx_graph

DOMAIN = "com.microsoft"
OP = "IsAllFinite"
data = Seeded(67)


def by_nodes(inputs: list[np.ndarray], isinf_only: int, isnan_only: int) -> list[Any]:
    """True when no input holds what the attributes look for, by ai.onnx nodes."""
    nodes, found, feeds = [], [], {}
    for k, x in enumerate(inputs):
        # onnxruntime's Python binding takes no bfloat16 arrays: those go in widened to float, which is exact
        feeds[f"x{k}"] = x.astype(np.float32) if x.dtype == ml_dtypes.bfloat16 else x
        nodes.append(helper.make_node("Cast", [f"x{k}"], [f"f{k}"], to=TensorProto.FLOAT))
        if isnan_only:
            nodes.append(helper.make_node("IsNaN", [f"f{k}"], [f"bad{k}"]))
        elif isinf_only:
            nodes.append(helper.make_node("IsInf", [f"f{k}"], [f"bad{k}"]))
        else:
            nodes += [helper.make_node("IsNaN", [f"f{k}"], [f"nan{k}"]),
                      helper.make_node("IsInf", [f"f{k}"], [f"inf{k}"]),
                      helper.make_node("Or", [f"nan{k}", f"inf{k}"], [f"bad{k}"])]
        nodes += [helper.make_node("Cast", [f"bad{k}"], [f"badf{k}"], to=TensorProto.FLOAT),
                  helper.make_node("ReduceMax", [f"badf{k}"], [f"any{k}"], keepdims=0)]
        found.append(f"any{k}")
    zero = helper.make_tensor("zero", TensorProto.FLOAT, [], [0.0])
    nodes += [helper.make_node("Max", found, ["anyf"]),
              helper.make_node("Constant", [], ["zero"], value=zero),
              helper.make_node("Equal", ["anyf", "zero"], ["ok"])]
    return run_ai_onnx_graph(nodes, feeds, ["ok"])


def with_value(x: np.ndarray, value: float, at: int = 3) -> np.ndarray:
    y = x.copy()
    y.reshape(-1)[at] = value
    return y


def case(inputs: list[np.ndarray], id: str, isinf_only: int = 0, isnan_only: int = 0) -> OracleCase:
    attrs = {"isinf_only": isinf_only, "isnan_only": isnan_only}
    return OracleCase(OP, attrs, inputs, (1,), oracle=lambda: by_nodes(inputs, isinf_only, isnan_only), id=id,
                      domain=DOMAIN)


CLEAN = [data.f32(3, 4), data.f32(5), data.f32(2, 2, 2)]
NAN = with_value(CLEAN[1], np.nan)
INF = with_value(CLEAN[2], np.inf)
NEG_INF = with_value(CLEAN[0], -np.inf, at=11)

CASES = [
    *(case(inputs, f"{name}_{mode}", **attrs)
      for name, inputs in (("clean", CLEAN), ("nan", [CLEAN[0], NAN]), ("inf", [INF, CLEAN[1]]),
                           ("neg_inf", [NEG_INF]), ("nan_and_inf", [NAN, INF]))
      for mode, attrs in (("both", {}), ("inf_only", {"isinf_only": 1}), ("nan_only", {"isnan_only": 1}))),
    case([CLEAN[0].astype(np.float64), with_value(CLEAN[1].astype(np.float64), np.nan)], "double"),
    case([with_value(CLEAN[0].astype(np.float16), np.inf)], "fp16", isnan_only=1),
    case([with_value(CLEAN[0].astype(np.float16), np.inf)], "fp16_inf"),
    case([CLEAN[2].astype(ml_dtypes.bfloat16), with_value(CLEAN[1], np.nan).astype(ml_dtypes.bfloat16)], "bfloat16"),
]

test_kernel_matches_ai_onnx_nodes, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


def test_shape_formula_is_a_scalar() -> None:
    assert formula_shapes(version(DOMAIN, OP, 1), [[3, 4], [5]]) == [[]]


@pytest.mark.parametrize(("shapes", "attrs", "check"), [
    pytest.param([[3]], {"isinf_only": 1, "isnan_only": 1}, "isallfinite_c1", id="both_only"),
    pytest.param([[3]], {"isinf_only": 2}, "attr_allowed", id="isinf_only_2"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int]], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, attrs)
