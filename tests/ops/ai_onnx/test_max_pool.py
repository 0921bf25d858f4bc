"""MaxPool: the kernel against onnx.reference/onnxruntime, shape formulas against onnx, rejected nodes and inputs."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from opset.formula import Sym
from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    onnx_versions,
    oracle_tests,
    rejection_tests,
    run,
    shape_case,
    shape_tests,
    symbolic_shape,
)

OP = "MaxPool"
RAND = Seeded(1234)
f32 = RAND.f32


def kernel_cases() -> list[OracleCase]:
    x = f32(1, 2, 7, 6)
    cases = []
    named: list[tuple[str, dict[str, Any], int]] = [
        ("k3", dict(kernel_shape=[3, 3]), 1),
        ("k3s2p1", dict(kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]), 1),
        ("same_upper", dict(kernel_shape=[3, 3], strides=[2, 2], auto_pad="SAME_UPPER"), 1),
        ("same_lower_s1", dict(kernel_shape=[2, 3], auto_pad="SAME_LOWER"), 1),
        ("ceil", dict(kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1), 10),
        ("dil", dict(kernel_shape=[2, 2], dilations=[2, 2], pads=[1, 0, 1, 0]), 10),
    ]
    for name, attrs, lo in named:
        vs = all_since(OP, lo)
        cases.append(OracleCase(OP, attrs, [x], tuple(v for v in vs if v < 8), id=name))
        for order in (0, 1):
            cases.append(OracleCase(OP, dict(attrs, storage_order=order), [x], tuple(v for v in vs if v >= 8),
                                    n_out=2, oracle="ort", id=f"{name}_order{order}"))
    xi = RAND.ints(-100, 100, (1, 2, 5, 5), np.int8)
    cases.append(OracleCase(OP, dict(kernel_shape=[2, 2], pads=[1, 1, 0, 0]), [xi], all_since(OP, 12), n_out=2,
                            oracle="ort", id="int8"))
    cases.append(OracleCase(OP, dict(kernel_shape=[2, 2], strides=[2, 2]), [xi.view(np.uint8)], all_since(OP, 12),
                            n_out=2, oracle="ort", id="uint8_indices"))
    cases.append(OracleCase(OP, dict(kernel_shape=[3]), [f32(2, 3, 8)], all_since(OP, 8), n_out=2, oracle="ort",
                            id="1d_indices"))
    cases.append(OracleCase(OP, dict(kernel_shape=[2, 2, 2], strides=[2, 1, 2]), [f32(1, 2, 4, 3, 4)],
                            all_since(OP, 8), n_out=2, oracle="ort", id="3d_indices"))
    return cases


CASES = kernel_cases()


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


@pytest.mark.parametrize(("attrs", "inputs", "message"), [
    pytest.param(dict(kernel_shape=[2, 2], pads=[-1, 0, 0, 0]), [f32(1, 1, 4, 4)], "pads", id="negative_pads"),
])
def test_kernel_rejects_invalid_input(attrs: dict[str, Any], inputs: list[np.ndarray], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run("ai.onnx", OP, onnx_versions(OP)[-1], inputs, **attrs)


OPSETS = (1, 8, 10, 11, 12, 22)
WINDOWS: list[tuple[list[int], dict[str, Any]]] = [
    ([1, 3, 8, 8], {"kernel_shape": [2, 2]}),
    ([1, 3, 8, 8], {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]}),
    ([2, 1, 9], {"kernel_shape": [4], "strides": [3], "pads": [0, 2]}),
    ([1, 1, 7, 5, 6], {"kernel_shape": [2, 3, 1], "strides": [2, 1, 3]}),
    ([1, 2, 7, 8], {"kernel_shape": [3, 2], "strides": [2, 3], "auto_pad": "SAME_UPPER"}),
    ([1, 2, 7, 8], {"kernel_shape": [3, 3], "strides": [2, 2], "auto_pad": "SAME_LOWER"}),
    ([1, 2, 7, 8], {"kernel_shape": [2, 2], "strides": [3, 3], "auto_pad": "VALID"}),
]
# ceil_mode and dilations: from version 10
WINDOWS_10: list[tuple[list[int], dict[str, Any]]] = [
    ([1, 1, 5, 5], {"kernel_shape": [2, 2], "strides": [2, 2], "ceil_mode": 1}),
    ([1, 1, 6, 6], {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1], "ceil_mode": 1}),
    ([1, 1, 9, 9], {"kernel_shape": [3, 3], "dilations": [2, 3]}),
    ([1, 1, 9, 9], {"kernel_shape": [2, 2], "dilations": [2, 2], "strides": [2, 2], "ceil_mode": 1}),
    ([1, 1, 4, 4], {"kernel_shape": [2, 2], "strides": [3, 3], "auto_pad": "VALID", "ceil_mode": 1}),
    ([1, 1, 7, 7], {"kernel_shape": [2, 2], "strides": [3, 3], "auto_pad": "SAME_UPPER", "ceil_mode": 1}),
]
# ceil_mode: a last window made only of end padding is undefined before version 22, which drops it
EDGE = {"kernel_shape": [1], "strides": [3], "pads": [0, 2], "ceil_mode": 1}

SHAPES = [shape_case(OP, opset, [shape], attrs, n_out=1 if opset < 8 else 2) for opset in OPSETS
          for shape, attrs in WINDOWS + (WINDOWS_10 if opset >= 10 else [])]
SHAPES += [shape_case(OP, opset, [[1, 1, 4]], EDGE, n_out=2) for opset in OPSETS if opset >= 22]

REJECTED = [(c, check) for opset in OPSETS for c, check in (
    (shape_case(OP, opset, [[1, 1, 2, 2]], {"kernel_shape": [3, 3]}), "maxpool_c2"),
    (shape_case(OP, opset, [[1, 1, 4, 4]], {"kernel_shape": [2, 2], "auto_pad": "VALID", "pads": [1, 1, 1, 1]}),
     "maxpool_c3"),
    (shape_case(OP, opset, [[1, 1]], {"kernel_shape": []}), "maxpool_c1"),
)]
REJECTED += [(shape_case(OP, opset, [[1, 1, 4]], EDGE), "maxpool_c4") for opset in OPSETS if 10 <= opset < 22]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_symbolic_batch_dim() -> None:
    shape = symbolic_shape(OP, 22, [[Sym("N"), 3, 8, 8]], {"kernel_shape": [2, 2], "strides": [2, 2]})
    assert shape == ["N", "3", "4", "4"]
