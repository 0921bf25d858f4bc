"""Conv: the kernel against onnx.reference, the shape formula against onnx, rejected nodes and inputs, symbolic dims."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from opset.formula import Sym
from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    inferred,
    onnx_versions,
    oracle_tests,
    problem_checks,
    rejection_tests,
    run,
    shape_case,
    shape_tests,
    version,
)

OP = "Conv"
f32 = Seeded(1234).f32
X = f32(2, 4, 7, 6)

CASES = [
    OracleCase(OP, {}, [X, f32(3, 4, 3, 3), f32(3)], all_since(OP), id="plain"),
    OracleCase(OP, dict(kernel_shape=[3, 2], strides=[2, 1], pads=[1, 0, 2, 1]), [X, f32(6, 4, 3, 2)], all_since(OP),
               id="strided_pads"),
    OracleCase(OP, dict(group=2, dilations=[2, 1]), [X, f32(6, 2, 2, 3), f32(6)], all_since(OP), id="group"),
    OracleCase(OP, dict(group=4, pads=[1, 1, 1, 1]), [X, f32(4, 1, 3, 3), f32(4)], all_since(OP), id="depthwise"),
    OracleCase(OP, dict(group=4, strides=[2, 2]), [X, f32(8, 1, 3, 3)], all_since(OP), id="depthwise_mult2"),
    OracleCase(OP, dict(auto_pad="SAME_UPPER", strides=[2, 2]), [X, f32(3, 4, 3, 3)], all_since(OP),
               id="same_upper"),
    OracleCase(OP, dict(auto_pad="SAME_LOWER"), [X, f32(3, 4, 2, 2)], all_since(OP), id="same_lower"),
    OracleCase(OP, dict(auto_pad="VALID", strides=[2, 2]), [X, f32(3, 4, 3, 3)], all_since(OP), id="valid"),
    OracleCase(OP, dict(strides=[2]), [f32(1, 3, 9), f32(2, 3, 3), f32(2)], all_since(OP), id="1d"),
    OracleCase(OP, dict(pads=[1, 0, 1, 0, 1, 1]), [f32(1, 2, 4, 3, 5), f32(3, 2, 2, 2, 3)], all_since(OP), id="3d"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


@pytest.mark.parametrize(("attrs", "inputs", "message"), [
    pytest.param(dict(group=3), [f32(1, 4, 4, 4), f32(2, 4, 3, 3)], "group", id="group"),
])
def test_kernel_rejects_invalid_input(attrs: dict[str, Any], inputs: list[np.ndarray], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run("ai.onnx", OP, onnx_versions(OP)[-1], inputs, **attrs)


SHAPES = [
    shape_case(OP, 1, [[1, 4, 7, 7], [6, 4, 3, 3]], {"dilations": [2, 2], "pads": [1, 1, 1, 1]}),
    shape_case(OP, 1, [[1, 4, 7, 7], [6, 4, 3, 3]], {"auto_pad": "VALID", "strides": [2, 2]}),
    shape_case(OP, 11, [[1, 4, 7, 7], [6, 2, 3, 3]], {"group": 2, "strides": [2, 2], "auto_pad": "SAME_LOWER"}),
    shape_case(OP, 11, [[2, 3, 10], [4, 3, 4], [4]], {"strides": [3], "pads": [0, 2]}),
    shape_case(OP, 11, [[1, 2, 5, 6, 7], [3, 2, 2, 3, 1]], {"kernel_shape": [2, 3, 1], "dilations": [1, 2, 1]}),
    shape_case(OP, 22, [[1, 4, 7, 7], [6, 4, 3, 3], [6]], {"auto_pad": "SAME_UPPER", "dilations": [2, 2]}),
    shape_case(OP, 22, [[1, 1, 5, 5], [1, 1, 3, 3]], {"auto_pad": "SAME_UPPER", "strides": [2, 3]}),
]

REJECTED = [
    (shape_case(OP, 11, [[1, 4, 7, 7], [6, 3, 3, 3]]), "conv_c2"),
    (shape_case(OP, 11, [[1, 4, 7, 7], [6, 2, 3, 3]], {"group": 4}), "conv_c3"),
    (shape_case(OP, 11, [[1, 4, 7, 7], [6, 4, 3]]), "conv_c1"),
    (shape_case(OP, 11, [[1, 4, 7, 7], [6, 4, 3, 3]], {"kernel_shape": [2, 2]}), "conv_c4"),
    (shape_case(OP, 22, [[1, 4, 3, 3], [6, 4, 3, 3]], {"dilations": [2, 2]}), "conv_c5"),
    (shape_case(OP, 11, [[1, 4, 7, 7], [6, 4, 3, 3]], {"auto_pad": "VALID", "pads": [1, 1, 1, 1]}), "conv_c6"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_symbolic_dims_leave_constraints_unchecked() -> None:
    n, h = Sym("N"), Sym("H")
    shapes: list[Any] = [[n, 4, h, 7], [6, 2, 3, 3]]
    v, attrs = version("ai.onnx", OP, 11), {"group": 2}
    assert problem_checks(v, shapes, attrs) == []
    out = inferred(v, shapes, attrs).outputs[0]
    assert out is not None and out[:2] == [n, 6] and out[3] == 5
