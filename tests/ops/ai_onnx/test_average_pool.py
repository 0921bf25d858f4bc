"""AveragePool: the kernel against onnx.reference, shape formulas against onnx, rejected nodes/inputs, seed 004."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    Seeded,
    ShapeCase,
    all_since,
    formula_shapes,
    onnx_inferred_shapes,
    onnx_versions,
    oracle_tests,
    registry,
    rejection_tests,
    reported_checks,
    run,
    shape_case,
    shape_id,
    shape_tests,
)

OP = "AveragePool"
f32 = Seeded(1234).f32


def kernel_cases() -> list[OracleCase]:
    x = f32(1, 2, 7, 6)
    cases = []
    named: list[tuple[str, dict[str, Any], int]] = [
        ("k3", dict(kernel_shape=[3, 3]), 1),
        ("k3s2p1", dict(kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]), 1),
        ("k2s2_asym_pads", dict(kernel_shape=[2, 3], strides=[2, 1], pads=[1, 0, 0, 2]), 1),
        ("same_upper", dict(kernel_shape=[3, 2], strides=[2, 2], auto_pad="SAME_UPPER"), 1),
        ("same_lower", dict(kernel_shape=[3, 2], strides=[2, 2], auto_pad="SAME_LOWER"), 1),
        ("valid", dict(kernel_shape=[3, 3], strides=[2, 2], auto_pad="VALID"), 1),
        ("include_pad", dict(kernel_shape=[3, 3], pads=[1, 1, 1, 1], count_include_pad=1), 7),
        ("include_pad_same", dict(kernel_shape=[3, 3], auto_pad="SAME_UPPER", count_include_pad=1), 7),
        ("ceil", dict(kernel_shape=[3, 3], strides=[2, 2], ceil_mode=1), 10),
        ("ceil_pads", dict(kernel_shape=[2, 2], strides=[2, 2], pads=[1, 1, 1, 1], ceil_mode=1), 10),
        ("ceil_pads_include", dict(kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1], ceil_mode=1,
                                   count_include_pad=1), 10),
        ("dil", dict(kernel_shape=[2, 2], dilations=[2, 2], pads=[1, 1, 1, 1]), 19),
        ("dil_ceil_include", dict(kernel_shape=[2, 2], dilations=[2, 1], strides=[2, 2], ceil_mode=1,
                                  count_include_pad=1), 19),
    ]
    for name, attrs, lo in named:
        cases.append(OracleCase(OP, attrs, [x], all_since(OP, max(lo, 7)), id=name))
        if lo == 1:  # the reference counts pads at opset 1 (it reads the absent count_include_pad as 'include')
            cases.append(OracleCase(OP, attrs, [x], (1,), oracle="ref@7", id=name))
    cases.append(OracleCase(OP, dict(kernel_shape=[3]), [f32(2, 3, 9)], all_since(OP), id="1d"))
    cases.append(OracleCase(OP, dict(kernel_shape=[2, 2, 3], strides=[1, 2, 1], pads=[0, 1, 1, 1, 0, 1]),
                            [f32(1, 2, 4, 5, 5)], all_since(OP, 7), id="3d"))
    cases.append(OracleCase(OP, dict(kernel_shape=[2, 2]), [f32(1, 2, 4, 4).astype(np.float16)], all_since(OP),
                            rtol=2e-3, id="fp16"))
    return cases


CASES = kernel_cases()


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


@pytest.mark.parametrize(("attrs", "inputs", "message"), [
    pytest.param(dict(kernel_shape=[3]), [f32(1, 1, 4, 4)], "kernel_shape has 1 values", id="kernel_rank"),
    pytest.param(dict(kernel_shape=[2, 2], auto_pad="SAME"), [f32(1, 1, 4, 4)], "auto_pad", id="auto_pad"),
])
def test_kernel_rejects_invalid_input(attrs: dict[str, Any], inputs: list[np.ndarray], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run("ai.onnx", OP, onnx_versions(OP)[-1], inputs, **attrs)


def test_seed_004_examples() -> None:
    """The AveragePool examples of seed 004 (ONNX's own operator doc examples), by value."""
    x = np.arange(1, 26, dtype=np.float32).reshape(1, 1, 5, 5)
    (y,) = run("ai.onnx", OP, 11, [x], kernel_shape=[5, 5], pads=[2, 2, 2, 2])
    assert y[0, 0, 0, 0] == pytest.approx(7.0) and y[0, 0, 2, 2] == pytest.approx(13.0)
    (y,) = run("ai.onnx", OP, 11, [x], kernel_shape=[5, 5], pads=[2, 2, 2, 2], count_include_pad=1)
    assert y[0, 0, 0, 0] == pytest.approx(2.52) and y[0, 0, 2, 2] == pytest.approx(13.0)
    x4 = np.arange(1, 17, dtype=np.float32).reshape(1, 1, 4, 4)
    (y,) = run("ai.onnx", OP, 11, [x4], kernel_shape=[3, 3], strides=[2, 2], ceil_mode=1)
    np.testing.assert_allclose(y[0, 0], [[6, 7.5], [12, 13.5]])
    (y,) = run("ai.onnx", OP, 11, [x], kernel_shape=[3, 3], auto_pad="SAME_LOWER")
    assert y[0, 0, 0, 0] == pytest.approx(4.0)  # mean of 1, 2, 6, 7


# seed versions (1, 7, 10, 11) and current onnx (19, 22)
SHAPES = [
    shape_case(OP, 1, [[1, 1, 5, 5]], {"kernel_shape": [2, 2], "strides": [2, 2], "pads": [1, 1, 1, 1]}),
    shape_case(OP, 1, [[1, 1, 5, 5]], {"kernel_shape": [2, 2], "strides": [2, 2], "auto_pad": "VALID"}),
    shape_case(OP, 1, [[1, 3, 6, 5]], {"kernel_shape": [3, 2], "strides": [2, 2], "auto_pad": "SAME_LOWER"}),
    shape_case(OP, 7, [[1, 3, 32]], {"kernel_shape": [2], "count_include_pad": 1}),
    shape_case(OP, 7, [[1, 1, 4, 4, 4]], {"kernel_shape": [2, 2, 2], "auto_pad": "SAME_UPPER"}),
    shape_case(OP, 10, [[1, 1, 4, 4]], {"kernel_shape": [3, 3], "strides": [2, 2], "ceil_mode": 1}),
    shape_case(OP, 11, [[1, 1, 6, 6]], {"kernel_shape": [3, 3], "strides": [2, 2], "auto_pad": "SAME_UPPER",
                                        "ceil_mode": 1}),
    shape_case(OP, 11, [[2, 3, 28, 28]], {"kernel_shape": [3, 3], "pads": [2, 2, 2, 2]}),
    shape_case(OP, 19, [[1, 1, 7]], {"kernel_shape": [2], "strides": [2], "pads": [1, 1], "ceil_mode": 1,
                                     "dilations": [2]}),
    shape_case(OP, 19, [[1, 1, 5, 5]], {"kernel_shape": [2, 2], "strides": [2, 2], "auto_pad": "VALID",
                                        "ceil_mode": 1}),
    shape_case(OP, 19, [[1, 1, 4, 4]], {"kernel_shape": [2, 2], "dilations": [2, 2]}),
    shape_case(OP, 22, [[1, 1, 5, 5]], {"kernel_shape": [2, 2], "strides": [2, 2], "pads": [1, 1, 1, 1],
                                        "ceil_mode": 1}),
    shape_case(OP, 22, [[1, 1, 4]], {"kernel_shape": [1], "strides": [2], "auto_pad": "VALID", "ceil_mode": 1}),
    shape_case(OP, 22, [[1, 1, 7]], {"kernel_shape": [3], "strides": [2], "pads": [2, 0], "ceil_mode": 1}),
    shape_case(OP, 22, [[1, 1, 9, 9]], {"kernel_shape": [3, 3], "strides": [3, 3], "auto_pad": "SAME_LOWER",
                                        "dilations": [2, 2]}),
]

# Seed 004's formulas where onnx 1.23's shape inference differs (see the seed_note of AveragePool).
SEED_DIVERGENCES = [
    (shape_case(OP, 10, [[1, 1, 5, 5]], {"kernel_shape": [2, 2], "strides": [2, 2], "auto_pad": "VALID",
                                         "ceil_mode": 1}), [1, 1, 2, 2]),
    (shape_case(OP, 11, [[1, 1, 4]], {"kernel_shape": [1], "strides": [2], "auto_pad": "VALID", "ceil_mode": 1}),
     [1, 1, 2]),
]

REJECTED = [
    # ceil_mode: a last window made only of end padding is undefined before version 22 (which drops it)
    (shape_case(OP, 10, [[1, 1, 5, 5]], {"kernel_shape": [2, 2], "strides": [2, 2], "pads": [1, 1, 1, 1],
                                         "ceil_mode": 1}), "averagepool_c3"),
    (shape_case(OP, 11, [[1, 1, 7]], {"kernel_shape": [2], "strides": [2], "pads": [1, 1], "ceil_mode": 1}),
     "averagepool_c3"),
    (shape_case(OP, 1, [[1, 1, 3, 3]], {"kernel_shape": [4, 4]}), "averagepool_c1"),
    (shape_case(OP, 11, [[1, 1, 5, 5]], {"kernel_shape": [2, 2], "auto_pad": "SAME_UPPER", "pads": [1, 1, 1, 1]}),
     "averagepool_c2"),
    (shape_case(OP, 19, [[1, 1, 4, 4]], {"kernel_shape": [3, 3], "dilations": [2, 2]}), "averagepool_c1"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


@pytest.mark.parametrize(("case", "seed_shape"), [pytest.param(c, s, id=shape_id(c)) for c, s in SEED_DIVERGENCES])
def test_seed_formula_where_onnx_differs(case: ShapeCase, seed_shape: list[int]) -> None:
    v = registry().resolve("ai.onnx", OP, case.opset)
    assert reported_checks(case) == []
    assert formula_shapes(v, case.inputs, case.attrs) == [seed_shape]
    assert onnx_inferred_shapes(case) != [seed_shape]


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
